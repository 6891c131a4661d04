package dev.klave.crypto;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The SHA-256 of a bearer token, the only form Klave keeps or carries past the moment a request
 * is read: a record holding it may be logged or printed without giving the token away.
 */
public record TokenHash(String hex) {
    private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

    public TokenHash {
        requireNonNull(hex, "hex is null");
        if (!HEX.matcher(hex).matches()) {
            throw new IllegalArgumentException("not a lower-case hex SHA-256");
        }
    }

    public static TokenHash of(SecretToken token) {
        return new TokenHash(token.hash());
    }

    /**
     * The token of an {@code Authorization: Bearer <token>} header (scheme in any case, RFC 9110
     * §11.1), when it is shaped like a token of {@code kind}; empty for anything else.
     */
    public static Optional<TokenHash> ofBearer(Optional<String> authorization, TokenKind kind) {
        if (authorization.isEmpty()) {
            return Optional.empty();
        }
        String header = authorization.get().strip();
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return SecretToken.parse(kind, header.substring(7).strip()).map(TokenHash::of);
    }
}
