package dev.klave.audit;

import java.time.Instant;

/** Deleting old audit rows (issue 32: retention), a few at a time. */
public interface AuditPruning {
    /**
     * Deletes up to {@code limit} of the oldest rows written before {@code before}, and their
     * completions, in one short transaction; returns how many rows went.
     */
    int deleteBefore(Instant before, int limit);
}
