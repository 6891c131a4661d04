package dev.klave.audit;

import java.util.List;
import java.util.Optional;

/** Storage of audit rows; each batch is one transaction. */
public interface AuditStore {
    /**
     * New rows and the completions of earlier ones in one transaction: one commit, one log flush.
     * Returns the access generation ({@code AccessChanges}, migration V7) as of that commit: no
     * access change commits between the read and the commit, so a request whose credential check
     * saw the same value may be forwarded on it (ProxyHandler). Either list may be empty; nothing
     * is written when any row or completion fails.
     */
    long write(List<AuditRow> rows, List<AuditRow.Completion> completions);

    /**
     * How many batches are best written at once, each in its own transaction. One where the
     * database has a single write lock (SQLite: a second batch would only queue on it). Two where
     * each commit waits for a log flush (PostgreSQL): a row that arrives while one batch waits for
     * its flush goes out in the next at once, instead of waiting for that flush and then its own
     * (measured in bench/RESULTS.md, session 7).
     */
    int parallelBatches();

    /**
     * Rows matching the filter, newest first (time, then Audit-ID), after {@code after} when
     * given, skipping {@code offset} more (spec 1's {@code page}; 0 with a cursor).
     */
    List<AuditRow> find(AuditFilter filter, Optional<AuditCursor> after, int offset, int limit);

    default List<AuditRow> find(AuditFilter filter, int offset, int limit) {
        return find(filter, Optional.empty(), offset, limit);
    }

    /**
     * How many rows {@code filter} keeps, counting no further than {@code atMost}: a listing's
     * total is bounded (issue 32), since counting every match of a large audit costs seconds.
     */
    long count(AuditFilter filter, long atMost);

    default long count(AuditFilter filter) {
        return count(filter, Long.MAX_VALUE);
    }

    Optional<AuditRow> findById(String id);

    /** Requests per time bucket: how many, how many refused (4xx), how many failed (5xx). */
    record Bucket(java.time.Instant start, long requests, long refused, long failed) {}

    /**
     * The rows {@code filter} keeps, counted per bucket of {@code bucket} (aligned on the epoch),
     * oldest first; empty buckets are left out. An aggregate in the database, never the rows.
     */
    List<Bucket> activity(AuditFilter filter, java.time.Duration bucket);
}
