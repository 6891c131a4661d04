package dev.klave.account;

import java.time.Instant;

/**
 * Failed password attempts per login as typed, shared by every replica (spec 1 §5, §8: 5 failures,
 * 15 minutes). Keyed by what was typed rather than by account, so a login that names no account is
 * counted and locked like one that does, and nothing is created for it.
 */
public interface LoginFailureStore {
    LockState state(String login);

    /**
     * Counts one failure, atomically; the {@code maxFailures}-th locks the login until
     * {@code lockUntil} and starts the count again.
     */
    LockState recordFailure(String login, int maxFailures, Instant lockUntil);

    /** Forgets the failures after a successful sign-in. */
    void clear(String login);
}
