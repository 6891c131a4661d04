package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/** A session just opened: the account and the cookie value that proves it, shown to the client once. */
public record OpenedSession(Subject subject, String cookieValue, Duration lifetime) {
    public OpenedSession {
        requireNonNull(subject, "subject is null");
        requireNonNull(cookieValue, "cookieValue is null");
        requireNonNull(lifetime, "lifetime is null");
    }

    @Override
    public String toString() {
        return "OpenedSession[subject=" + subject.login() + ", cookie=[redacted]]";
    }
}
