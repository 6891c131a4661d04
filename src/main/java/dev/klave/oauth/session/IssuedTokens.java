package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * What a token request answers (RFC 6749 §5.1): an access token ({@code klt_}) and a refresh token
 * ({@code klr_}), each shown once, and when the access token expires.
 */
public record IssuedTokens(String sessionId, String accessToken, String refreshToken, Instant accessExpiresAt) {
    public IssuedTokens {
        requireNonNull(sessionId, "sessionId is null");
        requireNonNull(accessToken, "accessToken is null");
        requireNonNull(refreshToken, "refreshToken is null");
        requireNonNull(accessExpiresAt, "accessExpiresAt is null");
    }

    /** Never the tokens. */
    @Override
    public String toString() {
        return "IssuedTokens[session " + sessionId + ", until " + accessExpiresAt + "]";
    }
}
