package dev.klave.storage;

import java.time.Instant;

/**
 * Values that may be used once, shared by every replica: the states of external sign-ins whose
 * callback was taken (spec 2 §5 rule 1: the callback must carry the state of a sign-in begun by
 * Klave — once; without it a callback replayed with its state cookie would sign in again at a
 * provider that accepts a code twice), and the agents' consent requests answered (spec 3 §4
 * "Agent login": one answer each). Only SHA-256 hashes are kept, each until it could no longer be
 * used anyway.
 */
public interface UsedStateStore {
    /**
     * Marks the state used, forgetting states whose cookies have expired. Returns false when it was
     * used already, by this replica or another; the primary key decides a race between two.
     */
    boolean use(String stateHash, Instant now, Instant forgetAfter);

    /** Whether the value was used already and is still remembered at {@code now}. */
    boolean used(String stateHash, Instant now);
}
