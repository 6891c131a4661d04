package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/**
 * A session just opened: the account, the cookie value that proves it (shown to the client once),
 * and when it ends.
 */
public record OpenedSession(Subject subject, String cookieValue, Duration lifetime, Instant expiresAt) {
    public OpenedSession {
        requireNonNull(subject, "subject is null");
        requireNonNull(cookieValue, "cookieValue is null");
        requireNonNull(lifetime, "lifetime is null");
        requireNonNull(expiresAt, "expiresAt is null");
    }

    @Override
    public String toString() {
        return "OpenedSession[subject=" + subject.login() + ", cookie=[redacted]]";
    }
}
