package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/** A stored web session: the hash of its id, whose it is, and until when (spec 1 §3 "Web session"). */
public record WebSession(String idHash, SubjectId subjectId, Instant createdAt, Instant expiresAt,
        Optional<Instant> closedAt) {
    public WebSession {
        requireNonNull(idHash, "idHash is null");
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(closedAt, "closedAt is null");
    }

    public boolean openAt(Instant now) {
        return closedAt.isEmpty() && now.isBefore(expiresAt);
    }
}
