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

    /** Rows matching the filter, newest first. */
    List<AuditRow> find(AuditFilter filter, int offset, int limit);

    Optional<AuditRow> findById(String id);
}
