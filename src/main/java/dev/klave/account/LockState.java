package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/** Failed password attempts of one account since its last success or lock, and the lock if any. */
public record LockState(int failures, Optional<Instant> lockedUntil) {
    public static final LockState CLEAR = new LockState(0, Optional.empty());

    public LockState {
        requireNonNull(lockedUntil, "lockedUntil is null");
    }

    public boolean lockedAt(Instant now) {
        return lockedUntil.map(now::isBefore).orElse(false);
    }
}
