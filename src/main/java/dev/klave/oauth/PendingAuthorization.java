package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * An authorization request that passed every check of {@code GET /oauth/authorize} and waits for
 * the person on the consent page (spec 3 §4 "Agent login"): which client, where the answer goes,
 * the PKCE challenge, the client's state, until when.
 */
public record PendingAuthorization(String clientId, String redirectUri, String codeChallenge, Optional<String> state,
        Instant expiresAt) {
    public PendingAuthorization {
        requireNonNull(clientId, "clientId is null");
        requireNonNull(redirectUri, "redirectUri is null");
        requireNonNull(codeChallenge, "codeChallenge is null");
        requireNonNull(state, "state is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }
}
