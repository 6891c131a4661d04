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

    /**
     * Whether this grant covers {@code role} on {@code scope} of its cluster: in its scope (a
     * whole-cluster grant covers every namespace), at or above that role. The ceiling of what a
     * person may let an agent use (spec 3 §5 4).
     */
    public boolean covers(Tier role, Scope scope) {
        boolean inScope = this.scope.wholeCluster() || this.scope.equals(scope);
        return inScope && (tier == Tier.CLUSTER_ADMIN || tier.ordinal() >= role.ordinal());
    }

    /**
     * This grant lent as {@code role} on {@code scope} until {@code until} — never beyond its own
     * end: what a delegated agent's session acts with after its person approved an access request
     * that this grant covers. It names this grant (its id, subject and cluster); its group is the
     * lent role's, so the session reaches no more than it was approved for.
     */
    public Grant lentAs(Tier role, Scope scope, Instant until) {
        if (!covers(role, scope)) {
            throw new IllegalArgumentException("a grant lends only what it covers");
        }
        Instant ends = expiresAt.filter(expiry -> expiry.isBefore(until)).orElse(until);
        return new Grant(id, subjectId, clusterId, role, scope, Optional.of(ends), note, createdAt, createdBy,
                revokedAt, revokedBy);
    }

    /** The group that carries this grant into the cluster: {@code service:<tier>:<scope>}. */
    public String group() {
        return groupOf(tier, scope);
    }

    public static String groupOf(Tier tier, Scope scope) {
        return "service:" + tier.code() + ":" + scope.value();
    }
}
