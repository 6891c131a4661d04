package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/** A reset or invitation link just made: shown once, never stored in clear. */
public record IssuedLink(Subject subject, String link, Instant expiresAt) {
    public IssuedLink {
        requireNonNull(subject, "subject is null");
        requireNonNull(link, "link is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }

    @Override
    public String toString() {
        return "IssuedLink[subject=" + subject.login() + ", link=[redacted], expiresAt=" + expiresAt + "]";
    }
}
