package dev.klave.credential;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Optional;

/** A stored credential: its hash, owner, reach and lifetime (spec 1 §2 "Credential"). */
public record Credential(
        String id,
        String tokenHash,
        SubjectId subjectId,
        Optional<ClusterId> clusterId,
        String name,
        String note,
        Instant createdAt,
        Instant expiresAt,
        Optional<String> createdBy,
        Optional<Instant> revokedAt,
        Optional<String> revokedBy,
        Optional<String> revokeReason) {
    public Credential {
        requireNonNull(id, "id is null");
        requireNonNull(tokenHash, "tokenHash is null");
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(clusterId, "clusterId is null");
        requireNonNull(name, "name is null");
        requireNonNull(note, "note is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(createdBy, "createdBy is null");
        requireNonNull(revokedAt, "revokedAt is null");
        requireNonNull(revokedBy, "revokedBy is null");
        requireNonNull(revokeReason, "revokeReason is null");
    }

    public boolean revoked() {
        return revokedAt.isPresent();
    }

    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }

    public CredentialStatus statusAt(Instant now) {
        if (revoked()) {
            return CredentialStatus.REVOKED;
        }
        return expiredAt(now) ? CredentialStatus.EXPIRED : CredentialStatus.ACTIVE;
    }
}
