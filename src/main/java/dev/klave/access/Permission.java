package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.ClusterId;
import java.util.Optional;

/**
 * One permission a person chose for their agent on the consent page: a role on a scope of a
 * cluster, never {@code cluster-admin} (spec 3 §5 4), and only in force while the person holds a
 * grant of exactly that role on that scope. Exactly, not "at or above": the agent acts in the
 * cluster through the grant's group ({@code service:<role>:<scope>}), and the reconciler binds the
 * groups of grants only — a lower role the person does not hold as a grant has no binding there.
 */
public record Permission(ClusterId cluster, Tier role, Scope scope) {
    public Permission {
        requireNonNull(cluster, "cluster is null");
        requireNonNull(role, "role is null");
        requireNonNull(scope, "scope is null");
        if (!Authority.delegable(role)) {
            throw new IllegalArgumentException("cluster-admin is beyond every agent's ceiling");
        }
    }

    /** The permission a grant gives, or empty for cluster-admin, which no agent is given. */
    public static Optional<Permission> of(Grant grant) {
        return !Authority.delegable(grant.tier()) ? Optional.empty()
                : Optional.of(new Permission(grant.clusterId(), grant.tier(), grant.scope()));
    }

    /** The grant carries exactly this permission into the cluster (its group is this one's). */
    public boolean carriedBy(Grant grant) {
        return grant.clusterId().equals(cluster) && grant.tier() == role && grant.scope().equals(scope);
    }

    /**
     * Within the ceiling a grant sets (spec 3 §5 4, for {@code request_access}): same cluster, in
     * its scope (a whole-cluster grant covers every namespace), at or below its role.
     */
    public boolean within(Grant grant) {
        return grant.clusterId().equals(cluster) && grant.covers(role, scope);
    }
}
