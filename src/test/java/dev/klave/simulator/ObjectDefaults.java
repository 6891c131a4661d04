package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * What the controllers and kubelet of a healthy cluster would make of an object, done at write
 * time: pods run and are ready, deployments reach their replica count (statefulsets and daemonsets:
 * {@link WorkloadDefaults}), services get a cluster IP, secrets fold {@code stringData} into data.
 * Tests need realistic status columns, not a scheduler.
 */
final class ObjectDefaults {
    private ObjectDefaults() {
    }

    static void apply(ResourceType type, ObjectNode object, Instant now) {
        switch (type.kind()) {
            case "Pod" -> pod(object, now);
            case "Deployment" -> deployment(object, now);
            case "StatefulSet" -> WorkloadDefaults.statefulSet(object);
            case "DaemonSet" -> WorkloadDefaults.daemonSet(object);
            case "Namespace" -> namespace(object);
            case "Service" -> service(object);
            case "Secret" -> secret(object);
            case "Role", "ClusterRole" -> emptyRulesAsNull(object);
            default -> {
            }
        }
    }

    private static void pod(ObjectNode pod, Instant now) {
        ObjectNode spec = Json.objectAt(pod, "spec");
        if (!spec.hasNonNull("nodeName")) {
            spec.put("nodeName", "simulator-node");
        }
        ObjectNode status = Json.objectAt(pod, "status");
        if (!status.hasNonNull("phase")) {
            status.put("phase", "Running");
        }
        if (!status.hasNonNull("startTime")) {
            status.put("startTime", now.toString());
        }
        status.put("hostIP", "192.0.2.10");
        if (!status.hasNonNull("podIP")) {
            int suffix = Math.floorMod(Json.string(pod, "metadata", "name").orElse("").hashCode(), 250) + 2;
            status.put("podIP", "198.51.100." + suffix);
        }
        boolean running = status.get("phase").asText().equals("Running");
        ArrayNode conditions = status.putArray("conditions");
        for (String condition : new String[] {"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady",
                "PodScheduled"}) {
            ObjectNode entry = conditions.addObject();
            entry.put("type", condition);
            entry.put("status", running || condition.equals("PodScheduled") ? "True" : "False");
            entry.put("lastTransitionTime", status.get("startTime").asText());
        }
        Map<String, JsonNode> previous = new HashMap<>();
        for (JsonNode containerStatus : status.path("containerStatuses")) {
            previous.put(containerStatus.path("name").asText(), containerStatus);
        }
        ArrayNode containerStatuses = status.putArray("containerStatuses");
        for (JsonNode container : spec.path("containers")) {
            String name = container.path("name").asText();
            if (previous.containsKey(name)) {
                containerStatuses.add(previous.get(name));
                continue;
            }
            ObjectNode containerStatus = containerStatuses.addObject();
            containerStatus.put("name", name);
            containerStatus.put("image", container.path("image").asText());
            containerStatus.put("imageID", "");
            containerStatus.put("ready", running);
            containerStatus.put("started", running);
            containerStatus.put("restartCount", 0);
            containerStatus.putObject("state").putObject("running").put("startedAt", status.get("startTime").asText());
        }
    }

    private static void deployment(ObjectNode deployment, Instant now) {
        ObjectNode spec = Json.objectAt(deployment, "spec");
        if (!spec.hasNonNull("replicas")) {
            spec.put("replicas", 1);
        }
        int replicas = spec.get("replicas").asInt();
        ObjectNode status = deployment.putObject("status");
        status.put("observedGeneration", deployment.path("metadata").path("generation").asLong(1));
        if (replicas > 0) {
            status.put("replicas", replicas);
            status.put("updatedReplicas", replicas);
            status.put("readyReplicas", replicas);
            status.put("availableReplicas", replicas);
        }
        ObjectNode available = status.putArray("conditions").addObject();
        available.put("type", "Available");
        available.put("status", "True");
        available.put("reason", "MinimumReplicasAvailable");
        available.put("message", "Deployment has minimum availability.");
        available.put("lastUpdateTime", now.toString());
        available.put("lastTransitionTime", now.toString());
    }

    /**
     * {@code stringData} is write-only: each entry is encoded into {@code data}, replacing a key of
     * the same name, and is never stored (core/v1 conversion, Convert_v1_Secret_To_core_Secret).
     */
    /**
     * The real API server stores objects as protobuf, which has no empty list apart from none: a
     * role written with {@code rules: []} (or none) reads back as {@code rules: null}.
     */
    private static void emptyRulesAsNull(ObjectNode role) {
        JsonNode rules = role.get("rules");
        if (rules == null || rules.isArray() && rules.isEmpty()) {
            role.putNull("rules");
        }
    }

    private static void secret(ObjectNode secret) {
        if (!secret.hasNonNull("type")) {
            secret.put("type", "Opaque");
        }
        JsonNode stringData = secret.remove("stringData");
        if (stringData != null && stringData.isObject() && !stringData.isEmpty()) {
            ObjectNode data = Json.objectAt(secret, "data");
            stringData.properties().forEach(entry -> data.put(entry.getKey(),
                    Base64.getEncoder().encodeToString(entry.getValue().asText().getBytes(StandardCharsets.UTF_8))));
        }
    }

    private static void namespace(ObjectNode namespace) {
        Json.objectAt(namespace, "spec").putArray("finalizers").add("kubernetes");
        Json.objectAt(namespace, "status").put("phase", "Active");
        Json.objectAt(Json.objectAt(namespace, "metadata"), "labels")
                .put("kubernetes.io/metadata.name", Json.string(namespace, "metadata", "name").orElse(""));
    }

    private static void service(ObjectNode service) {
        ObjectNode spec = Json.objectAt(service, "spec");
        if (!spec.hasNonNull("type")) {
            spec.put("type", "ClusterIP");
        }
        if (!spec.hasNonNull("clusterIP")) {
            String name = Json.string(service, "metadata", "name").orElse("")
                    + Json.string(service, "metadata", "namespace").orElse("");
            int hash = Math.floorMod(name.hashCode(), 250 * 250);
            String ip = "10.96." + (hash / 250) + "." + (hash % 250 + 2);
            spec.put("clusterIP", ip);
            spec.putArray("clusterIPs").add(ip);
        }
        for (JsonNode port : spec.path("ports")) {
            if (port instanceof ObjectNode portObject && !portObject.has("protocol")) {
                portObject.put("protocol", "TCP");
            }
        }
    }
}
