package dev.klave.ci;

import java.time.Instant;

/**
 * The {@code jti} of every ID token already exchanged, shared by all replicas (spec 1 §4 "CI
 * exchange rules" 1: not already exchanged).
 */
public interface ExchangedTokenStore {
    boolean exchanged(String jti);

    /**
     * Marks the token spent, forgetting entries whose tokens can no longer pass the expiry check.
     * Returns false when another exchange spent it first; the primary key decides the race.
     */
    boolean spend(String jti, Instant now, Instant forgetAfter);
}
