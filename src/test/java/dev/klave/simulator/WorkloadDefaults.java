package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * The StatefulSet and DaemonSet controllers of a healthy one-node cluster, done at write time:
 * every replica is created, ready and at the newest revision. The spec gets the defaults
 * kube-apiserver's apps/v1 defaulting gives (pkg/apis/apps/v1/defaults.go), so an object read back
 * looks like a cluster's, and {@code kubectl get} shows READY 3/3 or DESIRED 1 as there.
 */
final class WorkloadDefaults {
    /** The labels of the one node, "simulator-node", that a DaemonSet's nodeSelector is matched against. */
    static final Map<String, String> NODE_LABELS = Map.of("kubernetes.io/hostname", "simulator-node",
            "kubernetes.io/os", "linux", "kubernetes.io/arch", "amd64");

    private WorkloadDefaults() {
    }

    static void statefulSet(ObjectNode statefulSet) {
        ObjectNode spec = Json.objectAt(statefulSet, "spec");
        putIfAbsent(spec, "replicas", 1);
        putIfAbsent(spec, "podManagementPolicy", "OrderedReady");
        putIfAbsent(spec, "revisionHistoryLimit", 10);
        if (!spec.has("updateStrategy")) {
            ObjectNode strategy = spec.putObject("updateStrategy");
            strategy.put("type", "RollingUpdate");
            strategy.putObject("rollingUpdate").put("partition", 0);
        }
        if (!spec.has("persistentVolumeClaimRetentionPolicy")) {
            ObjectNode retention = spec.putObject("persistentVolumeClaimRetentionPolicy");
            retention.put("whenDeleted", "Retain");
            retention.put("whenScaled", "Retain");
        }
        int replicas = spec.get("replicas").asInt();
        String revision = revision(statefulSet);
        ObjectNode status = statefulSet.putObject("status");
        status.put("observedGeneration", statefulSet.path("metadata").path("generation").asLong(1));
        status.put("replicas", replicas);
        if (replicas > 0) {
            status.put("readyReplicas", replicas);
            status.put("currentReplicas", replicas);
            status.put("updatedReplicas", replicas);
        }
        status.put("availableReplicas", replicas);
        status.put("currentRevision", revision);
        status.put("updateRevision", revision);
        status.put("collisionCount", 0);
    }

    static void daemonSet(ObjectNode daemonSet) {
        ObjectNode spec = Json.objectAt(daemonSet, "spec");
        putIfAbsent(spec, "revisionHistoryLimit", 10);
        if (!spec.has("updateStrategy")) {
            ObjectNode strategy = spec.putObject("updateStrategy");
            strategy.put("type", "RollingUpdate");
            ObjectNode rolling = strategy.putObject("rollingUpdate");
            rolling.put("maxUnavailable", 1);
            rolling.put("maxSurge", 0);
        }
        int scheduled = fitsTheNode(spec.path("template").path("spec").path("nodeSelector")) ? 1 : 0;
        ObjectNode status = daemonSet.putObject("status");
        status.put("currentNumberScheduled", scheduled);
        status.put("desiredNumberScheduled", scheduled);
        status.put("numberAvailable", scheduled);
        status.put("numberMisscheduled", 0);
        status.put("numberReady", scheduled);
        status.put("observedGeneration", daemonSet.path("metadata").path("generation").asLong(1));
        status.put("updatedNumberScheduled", scheduled);
    }

    private static boolean fitsTheNode(JsonNode nodeSelector) {
        return Json.stringMap(nodeSelector).entrySet().stream()
                .allMatch(entry -> entry.getValue().equals(NODE_LABELS.get(entry.getKey())));
    }

    /** A ControllerRevision name: the workload's name and a hash of its pod template, so a new template is a new revision. */
    private static String revision(ObjectNode workload) {
        int hash = workload.path("spec").path("template").toString().hashCode();
        return Json.string(workload, "metadata", "name").orElse("") + "-" + Integer.toHexString(hash);
    }

    private static void putIfAbsent(ObjectNode object, String field, int value) {
        if (!object.hasNonNull(field)) {
            object.put(field, value);
        }
    }

    private static void putIfAbsent(ObjectNode object, String field, String value) {
        if (!object.hasNonNull(field)) {
            object.put(field, value);
        }
    }
}
