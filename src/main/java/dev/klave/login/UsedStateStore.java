package dev.klave.login;

import java.time.Instant;

/**
 * The states of external sign-ins whose callback was taken, shared by every replica (spec 2 §5
 * rule 1: the callback must carry the state of a sign-in begun by Klave — once). Without it a
 * state would be single use only because providers' codes are: a callback replayed with its state
 * cookie would sign in again at a provider that accepts a code twice. Only SHA-256 hashes of
 * states are kept, each until its cookie expires.
 */
public interface UsedStateStore {
    /**
     * Marks the state used, forgetting states whose cookies have expired. Returns false when it was
     * used already, by this replica or another; the primary key decides a race between two.
     */
    boolean use(String stateHash, Instant now, Instant forgetAfter);
}
