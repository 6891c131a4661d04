package dev.klave.storage;

import java.time.Instant;

/**
 * Counters of attempts in fixed time windows, shared by every replica: the per-IP sign-in limit
 * and the CI exchange limit (spec 1 §8).
 */
public interface RateWindowStore {
    /**
     * Adds one hit to {@code bucket}'s window that starts at {@code windowStart} and returns the
     * window's hits including this one. Windows that started before {@code forgetBefore} are dropped.
     */
    int hit(String bucket, Instant windowStart, Instant forgetBefore);
}
