package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * A secret of a session, stored as its SHA-256 only (spec 3 §2): an authorization code (single
 * use, 10 minutes, with what the token request must repeat), an access token ({@code klt_}, 1 hour,
 * never beyond the session, only on {@code /mcp}) or a refresh token ({@code klr_}, rotating: a
 * used one presented again ends the session).
 *
 * @param redirectUri for a code: the redirect_uri the token request must repeat
 * @param codeChallenge for a code: the PKCE S256 challenge (RFC 7636 §4.2)
 * @param usedAt when a code or a refresh token was used; an access token is never "used"
 */
public record AgentToken(String hash, Kind kind, String sessionId, Instant createdAt, Instant expiresAt,
        Optional<Instant> usedAt, Optional<String> redirectUri, Optional<String> codeChallenge) {
    public enum Kind {
        CODE("code"),
        ACCESS("access"),
        REFRESH("refresh");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }

        public static Kind parse(String text) {
            for (Kind kind : values()) {
                if (kind.code.equals(text)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("unknown token kind: " + text);
        }
    }

    public AgentToken {
        requireNonNull(hash, "hash is null");
        if (!hash.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("not a lower-case hex SHA-256");
        }
        requireNonNull(kind, "kind is null");
        requireNonNull(sessionId, "sessionId is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(usedAt, "usedAt is null");
        requireNonNull(redirectUri, "redirectUri is null");
        requireNonNull(codeChallenge, "codeChallenge is null");
        if (kind == Kind.CODE && (redirectUri.isEmpty() || codeChallenge.isEmpty())) {
            throw new IllegalArgumentException("a code carries its redirect_uri and PKCE challenge");
        }
    }

    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
