package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.messages.Message;
import java.util.List;

/** The audit browser: filtered pages, and one row by its Audit-ID (spec 1 §4 "Audit"). */
public final class AuditQueries {
    public static final int PAGE_SIZE = 50;

    private final AuditStore store;

    public AuditQueries(AuditStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    public record Page(List<AuditRow> events, int page, int pageSize, boolean hasMore) {
        public Page {
            events = List.copyOf(events);
        }
    }

    /** Non-administrators see only their own rows, whatever the filter asks. */
    public Page page(AuditFilter filter, int page, Principal caller) {
        AuditFilter effective = caller.admin() ? filter : filter.onlySubject(caller.subjectId().value());
        List<AuditRow> rows = store.find(effective, (page - 1) * PAGE_SIZE, PAGE_SIZE + 1);
        boolean more = rows.size() > PAGE_SIZE;
        return new Page(more ? rows.subList(0, PAGE_SIZE) : rows, page, PAGE_SIZE, more);
    }

    /** Someone else's row is 404 for a non-administrator, as if it did not exist. */
    public AuditRow one(String id, Principal caller) {
        AuditRow row = store.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        if (!caller.admin() && !row.subjectId().map(caller.subjectId().value()::equals).orElse(false)) {
            throw Message.NOT_FOUND.refusal();
        }
        return row;
    }
}
