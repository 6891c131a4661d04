package dev.klave.login.forge;

import java.util.Optional;

/** The last forge sync pass, whichever replica ran it. */
public interface SyncReportStore {
    Optional<SyncReport> last();

    /** Replaces the last pass's report. */
    void save(SyncReport report);
}
