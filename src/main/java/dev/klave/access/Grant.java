package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Optional;

/** A grant (spec 1 §2 "Grant"): a tier on a scope of one cluster for one subject. */
public record Grant(
        String id,
        SubjectId subjectId,
        ClusterId clusterId,
        Tier tier,
        Scope scope,
        Optional<Instant> expiresAt,
        String note,
        Instant createdAt,
        Optional<String> createdBy,
        Optional<Instant> revokedAt,
        Optional<String> revokedBy) {
    public Grant {
        requireNonNull(id, "id is null");
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(clusterId, "clusterId is null");
        requireNonNull(tier, "tier is null");
        requireNonNull(scope, "scope is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(note, "note is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(createdBy, "createdBy is null");
        requireNonNull(revokedAt, "revokedAt is null");
        requireNonNull(revokedBy, "revokedBy is null");
    }

    /** Active: not revoked and not expired at {@code now} (spec 1 §3 "Grant"). */
    public boolean activeAt(Instant now) {
        return revokedAt.isEmpty() && expiresAt.map(now::isBefore).orElse(true);
    }

    /** The group that carries this grant into the cluster: {@code service:<tier>:<scope>}. */
    public String group() {
        return groupOf(tier, scope);
    }

    public static String groupOf(Tier tier, Scope scope) {
        return "service:" + tier.code() + ":" + scope.value();
    }
}
