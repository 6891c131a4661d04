package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What stands in for the kubelet and container runtime: container logs, the scripted commands
 * exec runs, and the ports port-forward reaches. Every pod "runs" as soon as it is stored.
 */
final class PodRuntime implements AutoCloseable {
    private final ObjectStore store;
    private final PodLogs logs;
    private volatile boolean closed;

    PodRuntime(ObjectStore store) {
        this.store = requireNonNull(store, "store is null");
        this.logs = new PodLogs(store.clock());
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

    /**
     * Appends to the running instance's log, which starts with the container's start-up lines
     * even when a test writes before anyone reads.
     */
    void appendLog(String namespace, String name, String container, String line) {
        Optional<ObjectNode> pod = store.get(ResourceCatalog.PODS, namespace, name);
        logs.buffer(namespace, name, container, pod.map(found -> initialLog(found, container)).orElse(List.of()),
                pod.map(found -> startedAt(found, container)).orElseGet(logs::now));
        logs.append(namespace, name, container, line);
    }

    /** When the container's running instance started (its status), else when the pod did. */
    static Instant startedAt(ObjectNode pod, String container) {
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            String started = status.path("state").path("running").path("startedAt").asText("");
            if (status.path("name").asText().equals(container) && !started.isEmpty()) {
                return Instant.parse(started);
            }
        }
        return Json.string(pod, "status", "startTime").map(Instant::parse).orElse(Instant.EPOCH);
    }

    /** The log of the container's previous instance: a restart's, else the pod's previous-log annotation. */
    Optional<List<PodLogs.Line>> previousLog(ObjectNode pod, String container) {
        String namespace = Json.string(pod, "metadata", "namespace").orElse("");
        String name = Json.string(pod, "metadata", "name").orElse("");
        return logs.previous(namespace, name, container).or(() -> Json.string(pod, "metadata", "annotations",
                PodLogs.PREVIOUS_LOG_ANNOTATION).map(text -> Stream.of(text.split("\n"))
                        .map(line -> new PodLogs.Line(startedAt(pod, container), line)).toList()));
    }

    /**
     * The container exits with {@code exitCode} and the kubelet starts it again at once: its status
     * counts the restart and keeps the ended instance as {@code lastState.terminated}, and its log
     * starts over, the old one becoming the previous log.
     */
    void restart(String namespace, String name, String container, int exitCode) {
        ObjectNode pod = pod(namespace, name);
        Instant oldStart = startedAt(pod, container);
        String now = store.now().toString();
        store.write(ResourceCatalog.PODS, namespace, name, current -> {
            ObjectNode live = current.orElseThrow(() -> ResourceCatalog.PODS.notFound(name));
            ObjectNode status = statusOf(live, container);
            ObjectNode terminated = status.putObject("lastState").putObject("terminated");
            terminated.put("exitCode", exitCode);
            terminated.put("reason", exitCode == 0 ? "Completed" : "Error");
            terminated.put("startedAt", oldStart.toString());
            terminated.put("finishedAt", now);
            status.put("restartCount", status.path("restartCount").asInt() + 1);
            status.putObject("state").putObject("running").put("startedAt", now);
            return live;
        }, false);
        logs.restart(namespace, name, container, initialLog(pod, container), oldStart);
    }

    private static ObjectNode statusOf(ObjectNode pod, String container) {
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            if (status.path("name").asText().equals(container) && status instanceof ObjectNode found) {
                return found;
            }
        }
        throw new IllegalArgumentException("pod " + Json.string(pod, "metadata", "name").orElse("")
                + " has no container " + container);
    }

    @Override
    public void close() {
        closed = true;
        logs.wakeAll();
    }
}
