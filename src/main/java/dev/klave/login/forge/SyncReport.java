package dev.klave.login.forge;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * The outcome of one forge member sync pass (spec 1 §4 {@code GET /api/forge/status},
 * {@code last_sync}), shared by every replica through the database.
 *
 * @param twoFactorRequired empty when the App could not read the organisation's setting
 * @param error why the pass aborted (nobody was disabled then), or empty
 */
public record SyncReport(Instant startedAt, Instant finishedAt, String replica, int membersSeen, int disabled,
        int renamed, Optional<Boolean> twoFactorRequired, Optional<String> error) {
    public SyncReport {
        requireNonNull(startedAt, "startedAt is null");
        requireNonNull(finishedAt, "finishedAt is null");
        requireNonNull(replica, "replica is null");
        requireNonNull(twoFactorRequired, "twoFactorRequired is null");
        requireNonNull(error, "error is null");
    }
}
