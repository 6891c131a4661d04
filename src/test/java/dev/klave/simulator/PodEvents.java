package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The events a scheduler and kubelet record when a pod starts (Scheduled, Pulled, Created,
 * Started), so {@code kubectl describe pod} and {@code kubectl get events} look like a cluster's.
 */
final class PodEvents {
    private PodEvents() {
    }

    static List<ObjectNode> started(ObjectNode pod, Instant now) {
        String namespace = Json.string(pod, "metadata", "namespace").orElse("");
        String name = Json.string(pod, "metadata", "name").orElse("");
        List<ObjectNode> events = new ArrayList<>();
        events.add(event(pod, now, "", "default-scheduler", "Scheduled",
                "Successfully assigned " + namespace + "/" + name + " to simulator-node"));
        for (JsonNode container : pod.path("spec").path("containers")) {
            String containerName = container.path("name").asText();
            String fieldPath = "spec.containers{" + containerName + "}";
            events.add(event(pod, now, fieldPath, "kubelet", "Pulled",
                    "Container image \"" + container.path("image").asText() + "\" already present on machine"));
            events.add(event(pod, now, fieldPath, "kubelet", "Created", "Created container " + containerName));
            events.add(event(pod, now, fieldPath, "kubelet", "Started", "Started container " + containerName));
        }
        return events;
    }

    private static ObjectNode event(ObjectNode pod, Instant now, String fieldPath, String component, String reason,
            String message) {
        ObjectNode event = Json.object();
        event.put("apiVersion", "v1");
        event.put("kind", "Event");
        ObjectNode metadata = event.putObject("metadata");
        metadata.put("name", Json.string(pod, "metadata", "name").orElse("") + "." + Long.toHexString(System.nanoTime()));
        metadata.put("namespace", Json.string(pod, "metadata", "namespace").orElse(""));
        ObjectNode involved = event.putObject("involvedObject");
        involved.put("apiVersion", "v1");
        involved.put("kind", "Pod");
        involved.put("namespace", Json.string(pod, "metadata", "namespace").orElse(""));
        involved.put("name", Json.string(pod, "metadata", "name").orElse(""));
        involved.put("uid", Json.string(pod, "metadata", "uid").orElse(""));
        if (!fieldPath.isEmpty()) {
            involved.put("fieldPath", fieldPath);
        }
        event.put("reason", reason);
        event.put("message", message);
        ObjectNode source = event.putObject("source");
        source.put("component", component);
        if (component.equals("kubelet")) {
            source.put("host", "simulator-node");
        }
        event.put("firstTimestamp", now.toString());
        event.put("lastTimestamp", now.toString());
        event.put("count", 1);
        event.put("type", "Normal");
        event.put("reportingComponent", component);
        return event;
    }
}
