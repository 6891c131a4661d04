package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.kube.ClusterPath;
import java.util.List;
import java.util.Optional;

/** A cluster's namespaces and the pod-security level each enforces (spec 1 §2 "Cluster"). */
public final class Namespaces {
    static final String ENFORCE_LABEL = "pod-security.kubernetes.io/enforce";
    private static final ClusterPath NAMESPACES = ClusterPath.of("api", "v1", "namespaces");

    private final ClusterConnections connections;

    public Namespaces(ClusterConnections connections) {
        this.connections = requireNonNull(connections, "connections is null");
    }

    /** A namespace with its {@code pod-security.kubernetes.io/enforce} label, if it has one. */
    public record Namespace(String name, Optional<String> psaEnforce) {}

    /** @throws ClusterCallFailed when the cluster cannot be asked */
    public List<Namespace> list(ClusterId cluster) {
        return connections.reconciler(cluster).list(NAMESPACES, Optional.empty()).stream()
                .map(Namespaces::namespace)
                .toList();
    }

    /** One namespace; empty when the cluster has no such namespace. */
    public Optional<Namespace> find(ClusterId cluster, String name) {
        return connections.reconciler(cluster).get(NAMESPACES.append(name)).map(Namespaces::namespace);
    }

    private static Namespace namespace(JsonNode object) {
        JsonNode label = object.path("metadata").path("labels").path(ENFORCE_LABEL);
        return new Namespace(object.path("metadata").path("name").asText(),
                label.isTextual() ? Optional.of(label.asText()) : Optional.empty());
    }
}
