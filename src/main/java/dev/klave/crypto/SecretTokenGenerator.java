package dev.klave.crypto;

import static java.util.Objects.requireNonNull;

import java.security.SecureRandom;
import java.util.Base64;

/** Makes new tokens from 256 random bits. */
public final class SecretTokenGenerator {
    private static final int RANDOM_BYTES = 32;

    private final SecureRandom random;

    public SecretTokenGenerator(SecureRandom random) {
        this.random = requireNonNull(random, "random is null");
    }

    public SecretToken generate(TokenKind kind) {
        return new SecretToken(kind, kind.prefix() + randomId());
    }

    /** 256 random bits in unpadded base64url, for secrets without a prefix (session ids). */
    public String randomId() {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
