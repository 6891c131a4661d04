package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/** What the link lookup shows before the link is used ({@code POST /api/auth/link}). */
public record LinkView(String login, String displayName, String purpose, Instant expiresAt, boolean forgeRequired) {
    public LinkView {
        requireNonNull(login, "login is null");
        requireNonNull(displayName, "displayName is null");
        requireNonNull(purpose, "purpose is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }
}
