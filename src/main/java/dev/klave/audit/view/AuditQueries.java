package dev.klave.audit.view;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditCursor;
import dev.klave.audit.AuditFilter;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditStore;
import dev.klave.audit.AuditWriter;
import dev.klave.messages.Message;
import java.util.List;
import java.util.Optional;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit browser: filtered pages, and one row by its Audit-ID (spec 1 §4 "Audit"). Each read
 * first has the writer write what it holds, so it sees every row and status queued before it.
 */
public final class AuditQueries {
    public static final int PAGE_SIZE = 50;
    private static final Logger LOG = LoggerFactory.getLogger(AuditQueries.class);
    /** How long a read waits for the writer; then it reads what is durable, as it is. */
    private static final long FLUSH_WAIT_SECONDS = 5;

    private final AuditStore store;
    private final AuditWriter writer;

    public AuditQueries(AuditStore store, AuditWriter writer) {
        this.store = requireNonNull(store, "store is null");
        this.writer = requireNonNull(writer, "writer is null");
    }

    /** Most rows a listing's total counts; past it the total says "more than" (issue 32). */
    public static final int TOTAL_LIMIT = 10_000;

    /**
     * One page: its rows, whether more follow and the cursor of the next page, and the total —
     * at most {@link #TOTAL_LIMIT}, {@code totalCapped} when there are more.
     */
    public record Page(List<AuditRow> events, int page, int pageSize, boolean hasMore,
            Optional<String> nextCursor, long total, boolean totalCapped) {
        public Page {
            events = List.copyOf(events);
            java.util.Objects.requireNonNull(nextCursor, "nextCursor is null");
        }
    }

    /** Who reads the audit: an administrator reads every row, anyone else their own. */
    public record Viewer(String subjectId, boolean admin) {
        public Viewer {
            java.util.Objects.requireNonNull(subjectId, "subjectId is null");
        }
    }

    /**
     * Non-administrators see only their own rows, whatever the filter asks. A page follows
     * {@code after} (keyset) or, without one, is the {@code page}-th of spec 1.
     */
    public Page page(AuditFilter filter, int page, Optional<AuditCursor> after, Viewer caller) {
        flushWriter();
        AuditFilter effective = caller.admin() ? filter : filter.onlySubject(caller.subjectId());
        int offset = after.isPresent() ? 0 : (page - 1) * PAGE_SIZE;
        List<AuditRow> rows = store.find(effective, after, offset, PAGE_SIZE + 1);
        boolean more = rows.size() > PAGE_SIZE;
        List<AuditRow> shown = more ? rows.subList(0, PAGE_SIZE) : rows;
        long counted = store.count(effective, TOTAL_LIMIT + 1L);
        return new Page(shown, page, PAGE_SIZE, more,
                more ? Optional.of(AuditCursor.after(shown.getLast()).encode()) : Optional.empty(),
                Math.min(counted, TOTAL_LIMIT), counted > TOTAL_LIMIT);
    }

    /**
     * Streams the rows {@code filter} keeps — the same a listing pages through, all of them —
     * after {@code after} when given (a cut export resumes after the last row it received). It
     * reads up to now only: rows written meanwhile are newer and not part of it.
     */
    public long export(AuditFilter filter, Optional<AuditCursor> after, Viewer caller, AuditExport.Format format,
            AuditExport.Sink sink) throws java.io.IOException, InterruptedException {
        flushWriter();
        AuditFilter mine = caller.admin() ? filter : filter.onlySubject(caller.subjectId());
        return AuditExport.stream(store, mine.until(java.time.Instant.now()), after, format, sink);
    }

    /** Where an export resumes: after the row {@code id}, which the caller must be able to read. */
    public AuditCursor resumeAfter(String id, Viewer caller) {
        try {
            return AuditCursor.after(one(id, caller));
        } catch (dev.klave.messages.Refusal notFound) {
            throw Message.EXPORT_AFTER_INVALID.refusal();
        }
    }

    /** Most buckets an activity chart asks for; a wider range takes wider buckets. */
    public static final int MOST_BUCKETS = 500;

    /** Requests over time, as the chart above the rows draws them (issue 40). */
    public record Activity(Duration bucket, Instant from, Instant to, List<AuditStore.Bucket> buckets) {
        public Activity {
            buckets = List.copyOf(buckets);
        }
    }

    /**
     * The requests {@code filter} keeps between {@code from} and {@code to}, per minute or per hour
     * (whichever keeps the chart under {@link #MOST_BUCKETS} bars), or per day beyond.
     */
    public Activity activity(AuditFilter filter, Instant from, Instant to, Viewer caller) {
        flushWriter();
        AuditFilter mine = caller.admin() ? filter : filter.onlySubject(caller.subjectId());
        Duration range = Duration.between(from, to);
        Duration bucket = range.dividedBy(MOST_BUCKETS).compareTo(Duration.ofMinutes(1)) <= 0 ? Duration.ofMinutes(1)
                : range.dividedBy(MOST_BUCKETS).compareTo(Duration.ofHours(1)) <= 0 ? Duration.ofHours(1)
                : Duration.ofDays(1);
        return new Activity(bucket, from, to, store.activity(mine.between(from, to), bucket));
    }

    /** Someone else's row is 404 for a non-administrator, as if it did not exist. */
    public AuditRow one(String id, Viewer caller) {
        flushWriter();
        AuditRow row = store.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        if (!caller.admin() && !row.actor().subjectId().map(caller.subjectId()::equals).orElse(false)) {
            throw Message.NOT_FOUND.refusal();
        }
        return row;
    }

    private void flushWriter() {
        try {
            writer.flush().get(FLUSH_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("audit read went ahead without the writer's flush: {}", e.toString());
        }
    }
}
