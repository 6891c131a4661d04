package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Identifiers of requests: 128 random bits, URL-safe, behind a prefix that tells the two kinds
 * apart ({@code wr_}, {@code ar_}), because one page, {@code /agents/requests/<id>}, shows either.
 * Unguessable, though knowing one gives nothing: only its decider may see or decide it.
 */
public final class RequestIds {
    public static final String WRITE = "wr_";
    public static final String ACCESS = "ar_";
    private static final int RANDOM_BYTES = 16;

    private final SecureRandom random;

    public RequestIds(SecureRandom random) {
        this.random = requireNonNull(random, "random is null");
    }

    String write() {
        return WRITE + randomPart();
    }

    String access() {
        return ACCESS + randomPart();
    }

    private String randomPart() {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
