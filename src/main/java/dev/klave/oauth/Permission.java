package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.cluster.ClusterId;

/**
 * One permission a person chose for their agent on the consent page: a role on a scope of a
 * cluster, never {@code cluster-admin} (spec 3 §5 4), and only in force while the person's own
 * grants cover it.
 */
public record Permission(ClusterId cluster, Tier role, Scope scope) {
    public Permission {
        requireNonNull(cluster, "cluster is null");
        requireNonNull(role, "role is null");
        requireNonNull(scope, "scope is null");
        if (role == Tier.CLUSTER_ADMIN) {
            throw new IllegalArgumentException("cluster-admin is beyond every agent's ceiling");
        }
    }
}
