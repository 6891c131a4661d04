package dev.klave.oauth.client;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * A client Klave knows (spec 3 §2 "OAuth client"). {@code lastUsedAt} starts at {@code createdAt}
 * and moves when the client asks for authorization or tokens; a registered client whose
 * {@code lastUsedAt} is 30 days old is deleted.
 */
public record OAuthClient(String id, ClientKind kind, ClientMetadata metadata, Instant createdAt,
        Instant lastUsedAt) {
    public OAuthClient {
        requireNonNull(id, "id is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(metadata, "metadata is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(lastUsedAt, "lastUsedAt is null");
        if (id.isEmpty()) {
            throw new IllegalArgumentException("id is empty");
        }
        if (lastUsedAt.isBefore(createdAt)) {
            throw new IllegalArgumentException("lastUsedAt is before createdAt");
        }
    }
}
