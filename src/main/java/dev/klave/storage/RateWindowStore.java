package dev.klave.storage;

import java.time.Duration;
import java.time.Instant;

/**
 * Counters of attempts over a sliding span of time, shared by every replica: the per-IP sign-in
 * limit and the CI exchange limit (spec 1 §8: "10 attempts per minute"). Hits are kept per second,
 * so the span slides a second at a time; a burst across the turn of a calendar minute is counted
 * as one.
 */
public interface RateWindowStore {
    /**
     * Adds one hit to {@code bucket} at {@code at} and returns the bucket's hits in the
     * {@code span} that ends at {@code at}, this one included. Older hits are dropped.
     */
    int hit(String bucket, Instant at, Duration span);
}
