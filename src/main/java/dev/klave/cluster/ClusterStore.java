package dev.klave.cluster;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of clusters. */
public interface ClusterStore {
    /** @throws dev.klave.storage.AlreadyExistsException when the id is taken */
    void create(Cluster cluster);

    Optional<Cluster> findById(ClusterId id);

    /**
     * The cluster an API request names by id, when it exists.
     *
     * @throws dev.klave.messages.Refusal 404 {@code cluster no encontrado} for an id that is none or names no cluster
     */
    default ClusterId existing(String id) {
        if (!ClusterId.isValid(id)) {
            throw dev.klave.messages.Message.CLUSTER_NOT_FOUND.refusal();
        }
        ClusterId cluster = new ClusterId(id);
        findById(cluster).orElseThrow(dev.klave.messages.Message.CLUSTER_NOT_FOUND::refusal);
        return cluster;
    }

    List<Cluster> list();

    void setSecrets(ClusterId id, String sealedSecrets, Instant at);

    /** Records a reconciliation pass: when, and its error if it failed. */
    void recordReconciliation(ClusterId id, Instant at, Optional<String> error);

    /** Records what a pass learned of the cluster's API server. */
    void recordCapabilities(ClusterId id, String kubernetesVersion, boolean aggregatedDiscovery);

    /** What the last pass learned of the cluster's API server; unknown for a cluster none asked. */
    ClusterCapabilities capabilities(ClusterId id);

    /** Deletes the cluster and, with it, its grants. Returns whether it existed. */
    boolean delete(ClusterId id);
}
