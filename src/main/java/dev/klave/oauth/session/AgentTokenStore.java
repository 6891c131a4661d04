package dev.klave.oauth.session;

import java.time.Instant;
import java.util.Optional;

/** Codes, access and refresh tokens of agent sessions, by the SHA-256 of the secret. */
public interface AgentTokenStore {
    /** @throws dev.klave.storage.AlreadyExistsException for a hash already stored */
    void create(AgentToken token);

    Optional<AgentToken> findByHash(String hash);

    /**
     * Marks a code or a refresh token used, once: true for the first use only, so that two
     * replicas presented the same one cannot both honour it.
     */
    boolean use(String hash, Instant at);

    /** Forgets tokens expired before {@code before}; how many. */
    int deleteExpired(Instant before);
}
