package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/** A real audit store behind a fault of the test's choosing: subclasses change what they must. */
abstract class ForwardingAuditStore implements AuditStore {
    private final AuditStore store;
    private final int parallelBatches;

    ForwardingAuditStore(AuditStore store, int parallelBatches) {
        this.store = requireNonNull(store, "store is null");
        this.parallelBatches = parallelBatches;
    }

    @Override
    public long write(List<AuditRow> rows, List<AuditRow.Completion> completions) {
        return store.write(rows, completions);
    }

    @Override
    public int parallelBatches() {
        return parallelBatches;
    }

    @Override
    public List<AuditRow> find(AuditFilter filter, Optional<AuditCursor> after, int offset, int limit) {
        return store.find(filter, after, offset, limit);
    }

    @Override
    public long count(AuditFilter filter, long atMost) {
        return store.count(filter, atMost);
    }

    @Override
    public Optional<AuditRow> findById(String id) {
        return store.findById(id);
    }

    @Override
    public java.util.List<Bucket> activity(AuditFilter filter, java.time.Duration bucket) {
        return store.activity(filter, bucket);
    }
}
