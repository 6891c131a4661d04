package dev.klave.account;

import static java.util.Objects.requireNonNull;

/** The forge account a person is linked to: the numeric id is the identity, the login is for display. */
public record ForgeLink(long forgeId, String forgeLogin) {
    public ForgeLink {
        requireNonNull(forgeLogin, "forgeLogin is null");
        if (forgeId <= 0) {
            throw new IllegalArgumentException("forgeId must be positive");
        }
    }
}
