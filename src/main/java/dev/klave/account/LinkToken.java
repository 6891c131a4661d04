package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** A stored link token: its hash, never the token (spec 1 §2 "Link token", §3). */
public record LinkToken(
        String id,
        String tokenHash,
        SubjectId subjectId,
        LinkPurpose purpose,
        Instant createdAt,
        Instant expiresAt,
        Optional<Instant> consumedAt,
        Optional<Instant> revokedAt) {
    public LinkToken {
        requireNonNull(id, "id is null");
        requireNonNull(tokenHash, "tokenHash is null");
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(purpose, "purpose is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(consumedAt, "consumedAt is null");
        requireNonNull(revokedAt, "revokedAt is null");
    }

    public static LinkToken pending(String tokenHash, SubjectId subjectId, LinkPurpose purpose, Instant now) {
        return new LinkToken(UUID.randomUUID().toString(), tokenHash, subjectId, purpose, now,
                now.plus(purpose.lifetime()), Optional.empty(), Optional.empty());
    }

    /** Usable now: neither consumed, revoked nor expired (spec 1 §3: all three answer 410). */
    public boolean usableAt(Instant now) {
        return consumedAt.isEmpty() && revokedAt.isEmpty() && now.isBefore(expiresAt);
    }
}
