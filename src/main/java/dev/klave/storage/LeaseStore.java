package dev.klave.storage;

import java.time.Duration;
import java.time.Instant;

/**
 * Named locks with an expiry, shared by every replica through the database. A holder that dies
 * loses its lease when it expires; a live holder renews it by acquiring again before then.
 */
public interface LeaseStore {
    /**
     * Takes the lease {@code name} for {@code holder} until {@code now + ttl}, when it is free,
     * expired or already held by {@code holder}. Returns whether {@code holder} now holds it.
     */
    boolean tryAcquire(String name, String holder, Instant now, Duration ttl);

    /** Gives the lease up if {@code holder} holds it; a no-op otherwise. */
    void release(String name, String holder);
}
