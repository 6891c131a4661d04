package dev.klave.audit;

import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/** Storage of audit rows; each batch is one transaction. */
public interface AuditStore {
    void insertAll(List<AuditRow> rows);

    void completeAll(List<AuditRow.Completion> completions);

    /**
     * New rows and the completions of earlier ones in one transaction: one commit, one log flush.
     * Returns what {@code atCommit} reads at a point where nothing else can commit before this
     * transaction does: after the commit, or inside the transaction where it holds the database's
     * only write lock (SQLite).
     */
    long write(List<AuditRow> rows, List<AuditRow.Completion> completions, LongSupplier atCommit);

    /**
     * How many batches are best written at once, each in its own transaction. One where the
     * database has a single write lock (SQLite: a second batch would only queue on it). Two where
     * each commit waits for a log flush (PostgreSQL): a row that arrives while one batch waits for
     * its flush goes out in the next at once, instead of waiting for that flush and then its own
     * (measured in bench/RESULTS.md, session 7).
     */
    int parallelBatches();

    /** Rows matching the filter, newest first. */
    List<AuditRow> find(AuditFilter filter, int offset, int limit);

    Optional<AuditRow> findById(String id);
}
