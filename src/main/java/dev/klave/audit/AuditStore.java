package dev.klave.audit;

import java.util.List;
import java.util.Optional;

/** Storage of audit rows; each batch is one transaction. */
public interface AuditStore {
    void insertAll(List<AuditRow> rows);

    void completeAll(List<AuditRow.Completion> completions);

    /** New rows and the completions of earlier ones in one transaction: one commit, one log flush. */
    void write(List<AuditRow> rows, List<AuditRow.Completion> completions);

    /** Rows matching the filter, newest first. */
    List<AuditRow> find(AuditFilter filter, int offset, int limit);

    Optional<AuditRow> findById(String id);
}
