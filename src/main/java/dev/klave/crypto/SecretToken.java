package dev.klave.crypto;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/** A bearer token in clear; it exists only between its creation and the answer that shows it once. */
public final class SecretToken {
    // The prefix, then 256 bits in unpadded base64url: 43 characters.
    private static final Pattern BODY = Pattern.compile("[A-Za-z0-9_-]{43}");

    private final TokenKind kind;
    private final String value;

    SecretToken(TokenKind kind, String value) {
        this.kind = requireNonNull(kind, "kind is null");
        this.value = requireNonNull(value, "value is null");
    }

    /** Reads a token a client sent; empty when it is not shaped like a token of {@code kind}. */
    public static Optional<SecretToken> parse(TokenKind kind, String text) {
        if (text == null || !text.startsWith(kind.prefix())) {
            return Optional.empty();
        }
        if (!BODY.matcher(text.substring(kind.prefix().length())).matches()) {
            return Optional.empty();
        }
        return Optional.of(new SecretToken(kind, text));
    }

    public TokenKind kind() {
        return kind;
    }

    /** The token as the owner types it, prefix included. */
    public String reveal() {
        return value;
    }

    /** The lower-case hex SHA-256 of the whole token: the only form that is stored. */
    public String hash() {
        return sha256(value);
    }

    /** Lower-case hex SHA-256 of {@code text}: how every secret Klave checks is kept. */
    public static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return kind.prefix() + "[redacted]";
    }
}
