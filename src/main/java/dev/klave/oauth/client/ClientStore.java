package dev.klave.oauth.client;

import java.time.Instant;
import java.util.Optional;

/** The OAuth clients Klave knows, shared by every replica. */
public interface ClientStore {
    /**
     * Stores {@code client} unless {@code limit} registered clients exist already, in one statement
     * (replicas registering at the same moment may pass the limit by the few in flight).
     *
     * @return whether it was stored
     * @throws dev.klave.storage.AlreadyExistsException if a client has its id
     */
    boolean createWithin(OAuthClient client, int limit);

    Optional<OAuthClient> find(String clientId);

    /** Records that the client was used at {@code at} (never moves it back); nothing if it is unknown. */
    void touch(String clientId, Instant at);

    /** Deletes every registered client last used before {@code cutoff}; returns how many. */
    int deleteUnusedSince(Instant cutoff);

    /**
     * Deletes every registered client created before {@code cutoff} that never completed a login
     * (no agent session names it); returns how many.
     */
    int deleteNeverSignedInBefore(Instant cutoff);

    /** How many registered clients there are. */
    int countRegistered();
}
