package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What stands in for the kubelet and container runtime: container logs, the scripted commands
 * exec runs, and the ports port-forward reaches. Every pod "runs" as soon as it is stored.
 */
final class PodRuntime implements AutoCloseable {
    private final ObjectStore store;
    private final PodLogs logs = new PodLogs();
    private volatile boolean closed;

    PodRuntime(ObjectStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    PodLogs logs() {
        return logs;
    }

    ObjectStore store() {
        return store;
    }

    boolean closed() {
        return closed;
    }

    ObjectNode pod(String namespace, String name) {
        return store.get(ResourceCatalog.PODS, namespace, name).orElseThrow(() -> ResourceCatalog.PODS.notFound(name));
    }

    boolean exists(String namespace, String name) {
        return store.get(ResourceCatalog.PODS, namespace, name).isPresent();
    }

    /**
     * The container a request means: the named one, or the only one. The messages are the
     * apiserver's (pkg/registry/core/pod/strategy.go).
     */
    static String container(ObjectNode pod, String requested) {
        List<String> names = new ArrayList<>();
        for (JsonNode container : pod.path("spec").path("containers")) {
            names.add(container.path("name").asText());
        }
        String podName = Json.string(pod, "metadata", "name").orElse("");
        if (requested.isEmpty()) {
            if (names.size() == 1) {
                return names.getFirst();
            }
            throw ApiException.badRequest("a container name must be specified for pod " + podName
                    + ", choose one of: [" + String.join(" ", names) + "]");
        }
        if (!names.contains(requested)) {
            throw ApiException.badRequest("container " + requested + " is not valid for pod " + podName);
        }
        return requested;
    }

    static List<String> initialLog(ObjectNode pod, String container) {
        String annotated = Json.string(pod, "metadata", "annotations", PodLogs.LOG_ANNOTATION).orElse("");
        if (!annotated.isEmpty()) {
            return List.of(annotated.split("\n"));
        }
        return List.of("container " + container + " started");
    }

    @Override
    public void close() {
        closed = true;
        logs.wakeAll();
    }
}
