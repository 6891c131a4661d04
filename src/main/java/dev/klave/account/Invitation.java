package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/** A new person and the single-use link that lets them in; the link is shown once and never stored. */
public record Invitation(Subject subject, String link, Instant expiresAt) {
    public Invitation {
        requireNonNull(subject, "subject is null");
        requireNonNull(link, "link is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }

    @Override
    public String toString() {
        return "Invitation[subject=" + subject.login() + ", link=[redacted], expiresAt=" + expiresAt + "]";
    }
}
