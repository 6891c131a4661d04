package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.kube.ClusterPath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code describe} (issue 43): one object with what explains its state, in one compact answer —
 * its conditions; a pod's containers (state, readiness, restarts, last termination); a workload's
 * replicas and the states of its pods; then the object's events. What "why is it not ready" needs,
 * without the agent chaining get_resource, list_resources and get_events. Every request it sends
 * is audited; Secret values and credential-looking values are hidden as everywhere else.
 */
final class Describe {
    /** Kinds whose pods are listed by their selector. */
    private static final Set<String> WORKLOADS = Set.of("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet",
            "Job");
    private static final int EVENTS = 20;
    private static final int PODS = 50;
    /** A label key or value a selector may carry: nothing that could add a requirement (',', '=', '!'). */
    private static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/-]{0,315}");
    private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9._-]{0,63}");

    private final Clusters clusters;
    private final LookalikeCredentials credentials;

    Describe(Clusters clusters, LookalikeCredentials credentials) {
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.credentials = requireNonNull(credentials, "credentials is null");
    }

    ToolResult describe(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        Kinds.Target target = Kinds.target(calls, arguments);
        Kind kind = target.kind();
        String namespace = target.namespace();
        String name = target.name();
        JsonNode object = credentials.json(ReadTools.shown(calls.getJson(target.path(), Map.of())));
        StringBuilder out = new StringBuilder();
        JsonNode metadata = object.path("metadata");
        out.append(kind.kind()).append(' ').append(name).append(namespace.isEmpty() ? "" : " in " + namespace)
                .append(" (").append(kind.apiVersion()).append(")\n");
        line(out, "Created", metadata.path("creationTimestamp").asText(""));
        line(out, "Labels", pairs(metadata.path("labels")));
        for (JsonNode owner : metadata.path("ownerReferences")) {
            line(out, "Owned by", owner.path("kind").asText() + "/" + owner.path("name").asText());
        }
        line(out, "Being deleted since", metadata.path("deletionTimestamp").asText(""));
        JsonNode status = object.path("status");
        if (kind.kind().equals("Pod") && kind.group().isEmpty()) {
            pod(out, object);
        } else if (WORKLOADS.contains(kind.kind())) {
            workload(out, object, kind);
        }
        conditions(out, status.path("conditions"));
        if (WORKLOADS.contains(kind.kind()) && !namespace.isEmpty()) {
            podsOf(out, calls, namespace, object.path("spec").path("selector").path("matchLabels"));
        }
        if (!namespace.isEmpty()) {
            events(out, calls, namespace, name);
        }
        return ToolResult.Done.text(Output.cut(out.toString(), "describe less: get_resource or get_events"));
    }

    private static void pod(StringBuilder out, JsonNode pod) {
        JsonNode status = pod.path("status");
        line(out, "Phase", status.path("phase").asText("") + reason(status));
        line(out, "Node", pod.path("spec").path("nodeName").asText(""));
        line(out, "Pod IP", status.path("podIP").asText(""));
        Map<String, JsonNode> states = new LinkedHashMap<>();
        for (String field : List.of("initContainerStatuses", "containerStatuses")) {
            status.path(field).forEach(state -> states.put(state.path("name").asText(), state));
        }
        out.append("Containers:\n");
        for (String field : List.of("initContainers", "containers")) {
            for (JsonNode container : pod.path("spec").path(field)) {
                String containerName = container.path("name").asText();
                JsonNode state = states.getOrDefault(containerName, com.fasterxml.jackson.databind.node.MissingNode.getInstance());
                out.append("  ").append(containerName).append(field.equals("initContainers") ? " (init)" : "")
                        .append(": ").append(container.path("image").asText()).append('\n');
                out.append("    State: ").append(state(state.path("state"))).append('\n');
                String last = state(state.path("lastState"));
                if (!last.equals("unknown")) {
                    out.append("    Last state: ").append(last).append('\n');
                }
                out.append("    Ready: ").append(state.path("ready").asBoolean(false)).append(", restarts: ")
                        .append(state.path("restartCount").asInt(0)).append('\n');
                JsonNode resources = container.path("resources");
                if (!resources.isEmpty()) {
                    out.append("    Resources: requests ").append(pairs(resources.path("requests")))
                            .append("; limits ").append(pairs(resources.path("limits"))).append('\n');
                }
            }
        }
    }

    private static void workload(StringBuilder out, JsonNode object, Kind kind) {
        JsonNode spec = object.path("spec");
        JsonNode status = object.path("status");
        if (kind.kind().equals("DaemonSet")) {
            line(out, "Pods", "desired " + status.path("desiredNumberScheduled").asInt() + ", ready "
                    + status.path("numberReady").asInt() + ", updated " + status.path("updatedNumberScheduled").asInt()
                    + ", unavailable " + status.path("numberUnavailable").asInt());
        } else if (!kind.kind().equals("Job")) {
            line(out, "Replicas", "desired " + spec.path("replicas").asInt(1) + ", updated "
                    + status.path("updatedReplicas").asInt() + ", ready " + status.path("readyReplicas").asInt()
                    + ", available " + status.path("availableReplicas").asInt() + ", unavailable "
                    + status.path("unavailableReplicas").asInt());
        } else {
            line(out, "Pods", "active " + status.path("active").asInt() + ", succeeded "
                    + status.path("succeeded").asInt() + ", failed " + status.path("failed").asInt());
        }
        line(out, "Selector", pairs(spec.path("selector").path("matchLabels")));
        List<String> images = new ArrayList<>();
        spec.path("template").path("spec").path("containers")
                .forEach(container -> images.add(container.path("name").asText() + "=" + container.path("image").asText()));
        line(out, "Images", String.join(", ", images));
    }

    private static void conditions(StringBuilder out, JsonNode conditions) {
        if (conditions.isEmpty()) {
            return;
        }
        out.append("Conditions:\n");
        for (JsonNode condition : conditions) {
            out.append("  ").append(condition.path("type").asText()).append('=')
                    .append(condition.path("status").asText());
            String why = condition.path("reason").asText("");
            String message = condition.path("message").asText("");
            if (!why.isEmpty() || !message.isEmpty()) {
                out.append(": ").append(why).append(message.isEmpty() ? "" : (why.isEmpty() ? "" : " — ") + message);
            }
            out.append('\n');
        }
    }

    /** The workload's pods, by its selector's labels; none when a label could not be a selector's. */
    private void podsOf(StringBuilder out, ClusterCalls calls, String namespace, JsonNode labels)
            throws ClusterRefusal, InterruptedException, ToolError {
        List<String> requirements = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> entries = labels.fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            String value = entry.getValue().asText("");
            if (!LABEL_KEY.matcher(entry.getKey()).matches() || !LABEL_VALUE.matcher(value).matches()) {
                return;
            }
            requirements.add(entry.getKey() + "=" + value);
        }
        if (requirements.isEmpty()) {
            return;
        }
        JsonNode list = calls.getJson(ClusterPath.of("api", "v1", "namespaces", namespace, "pods"),
                Map.of("labelSelector", String.join(",", requirements), "limit", String.valueOf(PODS)));
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("POD", "PHASE", "READY", "RESTARTS", "WHY"));
        for (JsonNode pod : list.path("items")) {
            int ready = 0;
            int restarts = 0;
            List<String> why = new ArrayList<>();
            JsonNode statuses = pod.path("status").path("containerStatuses");
            for (JsonNode state : statuses) {
                ready += state.path("ready").asBoolean(false) ? 1 : 0;
                restarts += state.path("restartCount").asInt(0);
                String waiting = state.path("state").path("waiting").path("reason").asText("");
                if (!waiting.isEmpty()) {
                    why.add(state.path("name").asText() + ": " + waiting);
                }
            }
            rows.add(List.of(pod.path("metadata").path("name").asText(), pod.path("status").path("phase").asText(""),
                    ready + "/" + pod.path("spec").path("containers").size(), String.valueOf(restarts),
                    String.join("; ", why)));
        }
        out.append("Pods:\n");
        out.append(rows.size() == 1 ? "  (none match its selector)\n" : Tables.pad(rows).indent(2));
    }

    private void events(StringBuilder out, ClusterCalls calls, String namespace, String name)
            throws ClusterRefusal, InterruptedException, ToolError {
        JsonNode list = calls.getJson(ClusterPath.of("api", "v1", "namespaces", namespace, "events"),
                Map.of("fieldSelector", "involvedObject.name=" + Names.selectorValue(name)));
        List<JsonNode> events = new ArrayList<>();
        list.path("items").forEach(events::add);
        events.sort(Comparator.comparing(event -> event.path("lastTimestamp").asText(
                event.path("metadata").path("creationTimestamp").asText(""))));
        if (events.size() > EVENTS) {
            events = events.subList(events.size() - EVENTS, events.size());
        }
        out.append("Events:\n");
        if (events.isEmpty()) {
            out.append("  (none)\n");
        }
        for (JsonNode event : events) {
            out.append("  ").append(event.path("lastTimestamp").asText(event.path("metadata")
                            .path("creationTimestamp").asText(""))).append(' ').append(event.path("type").asText())
                    .append(' ').append(event.path("reason").asText());
            int count = event.path("count").asInt(1);
            out.append(count > 1 ? " (x" + count + ")" : "").append(": ")
                    .append(credentials.text(event.path("message").asText("").replace('\n', ' '))).append('\n');
        }
    }

    /** A container's state: running since, waiting with why, or terminated with why and its exit code. */
    private static String state(JsonNode state) {
        if (state.has("running")) {
            return "running since " + state.path("running").path("startedAt").asText("?");
        }
        if (state.has("waiting")) {
            JsonNode waiting = state.path("waiting");
            return "waiting: " + waiting.path("reason").asText("") + message(waiting);
        }
        if (state.has("terminated")) {
            JsonNode ended = state.path("terminated");
            return "terminated: " + ended.path("reason").asText("") + ", exit code " + ended.path("exitCode").asInt()
                    + ", at " + ended.path("finishedAt").asText("?") + message(ended);
        }
        return "unknown";
    }

    private static String message(JsonNode node) {
        String message = node.path("message").asText("");
        return message.isEmpty() ? "" : " — " + message.replace('\n', ' ');
    }

    private static String reason(JsonNode status) {
        String why = status.path("reason").asText("");
        return why.isEmpty() ? "" : " (" + why + message(status) + ")";
    }

    private static String pairs(JsonNode map) {
        List<String> pairs = new ArrayList<>();
        map.fields().forEachRemaining(entry -> pairs.add(entry.getKey() + "=" + entry.getValue().asText()));
        return String.join(", ", pairs);
    }

    private static void line(StringBuilder out, String label, String value) {
        Optional.of(value).filter(text -> !text.isEmpty())
                .ifPresent(text -> out.append(label).append(": ").append(text).append('\n'));
    }
}
