package dev.klave.account;

import java.time.Instant;

/** Failed password attempts per account, shared by every replica (spec 1 §5, §8: 5 failures, 15 minutes). */
public interface LoginFailureStore {
    LockState state(SubjectId subjectId);

    /**
     * Counts one failure, atomically; the {@code maxFailures}-th locks the account until
     * {@code lockUntil} and starts the count again.
     */
    LockState recordFailure(SubjectId subjectId, int maxFailures, Instant lockUntil);

    /** Forgets the failures after a successful sign-in. */
    void clear(SubjectId subjectId);
}
