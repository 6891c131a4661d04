package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What Klave last learned of a cluster's API server (each reconciliation pass asks): its version
 * ({@code /version}'s {@code gitVersion}) and whether it serves aggregated discovery
 * ({@code apidiscovery.k8s.io} v2, or v2beta1: Kubernetes 1.27 and later, 1.26 with its feature
 * gate), without which the agents' tools cannot resolve a kind. Empty until a pass has asked.
 */
public record ClusterCapabilities(Optional<String> kubernetesVersion, Optional<Boolean> aggregatedDiscovery) {
    public static final ClusterCapabilities UNKNOWN = new ClusterCapabilities(Optional.empty(), Optional.empty());

    public ClusterCapabilities {
        requireNonNull(kubernetesVersion, "kubernetesVersion is null");
        requireNonNull(aggregatedDiscovery, "aggregatedDiscovery is null");
    }
}
