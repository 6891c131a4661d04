package dev.klave.cluster;

import java.util.Optional;

/**
 * What the cluster routes ask of the RBAC reconciler: a pass now ({@code POST
 * /api/clusters/{id}/reconcile}) and the clean-up before a cluster is deleted. Declared here and
 * implemented by {@code reconcile}, which depends on this package, not the other way round.
 */
public interface RbacReconciliation {
    /**
     * Runs one pass now and records its outcome on the cluster.
     *
     * @throws dev.klave.messages.Refusal {@code RECONCILE_RUNNING} (409), {@code CLUSTER_WITHOUT_TOKENS}
     *     (409), {@code CLUSTER_FAILED} (502)
     */
    Pass reconcile(ClusterId cluster);

    /** Removes what Klave wrote into the cluster; never throws for the cluster's own failures. */
    Cleanup cleanup(ClusterId cluster);

    /** What a pass changed. */
    record Pass(int created, int updated, int deleted) {
        public boolean changedNothing() {
            return created == 0 && updated == 0 && deleted == 0;
        }
    }

    /** The {@code rbac_cleanup} report of a cluster deletion (spec 1 §4 "Clusters"). */
    record Cleanup(CleanupStatus status, Optional<String> error, int bindingsDeleted, int rolesDeleted,
            boolean lockHeld) {}
}
