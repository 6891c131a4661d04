package dev.klave.account;

import java.time.Duration;

/** Why a link was made, which fixes how long it lives (spec 1 §2 "Link token", §8). */
public enum LinkPurpose {
    /** A new account's first link: 72 hours. */
    INVITATION("invitation", Duration.ofHours(72)),
    /** A reset or linking link for an existing account: 24 hours. */
    RESET("reset", Duration.ofHours(24));

    private final String code;
    private final Duration lifetime;

    LinkPurpose(String code, Duration lifetime) {
        this.code = code;
        this.lifetime = lifetime;
    }

    public String code() {
        return code;
    }

    public Duration lifetime() {
        return lifetime;
    }

    public static LinkPurpose fromCode(String code) {
        for (LinkPurpose purpose : values()) {
            if (purpose.code.equals(code)) {
                return purpose;
            }
        }
        throw new IllegalArgumentException("unknown link purpose: " + code);
    }
}
