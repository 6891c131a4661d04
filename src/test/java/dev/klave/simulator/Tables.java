package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Server-side printing: a {@code meta.k8s.io/v1} Table with the columns kube-apiserver's printers
 * give each kind (pkg/printers/internalversion), so {@code kubectl get} prints as usual.
 */
final class Tables {
    private record Column(String name, String type, String format, int priority, Function<ObjectNode, Object> cell) {
    }

    private Tables() {
    }

    static boolean wanted(HttpRequest request) {
        return request.header("accept").map(accept -> accept.contains("as=Table")).orElse(false);
    }

    static ObjectNode table(ResourceType type, List<ObjectNode> objects, String resourceVersion, HttpRequest request,
            Instant now, boolean withHeaders) {
        List<Column> columns = columns(type, now);
        ObjectNode table = Json.object();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/v1");
        table.putObject("metadata").put("resourceVersion", resourceVersion);
        ArrayNode definitions = table.putArray("columnDefinitions");
        if (withHeaders) {
            for (Column column : columns) {
                ObjectNode definition = definitions.addObject();
                definition.put("name", column.name());
                definition.put("type", column.type());
                definition.put("format", column.format());
                definition.put("description", column.name());
                definition.put("priority", column.priority());
            }
        }
        String include = request.queryParameter("includeObject").orElse("Metadata");
        ArrayNode rows = table.putArray("rows");
        for (ObjectNode object : objects) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            for (Column column : columns) {
                cells.addPOJO(column.cell().apply(object));
            }
            if (include.equals("Object")) {
                row.set("object", object);
            } else if (!include.equals("None")) {
                ObjectNode partial = row.putObject("object");
                partial.put("kind", "PartialObjectMetadata");
                partial.put("apiVersion", "meta.k8s.io/v1");
                partial.set("metadata", object.path("metadata").deepCopy());
            }
        }
        return table;
    }

    private static List<Column> columns(ResourceType type, Instant now) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("Name", "string", "name", 0, object -> text(object, "metadata", "name")));
        Column age = new Column("Age", "string", "", 0, object -> age(object, now));
        switch (type.kind()) {
            case "Pod" -> {
                columns.add(new Column("Ready", "string", "", 0, Tables::podReady));
                columns.add(new Column("Status", "string", "", 0, object -> text(object, "status", "phase")));
                columns.add(new Column("Restarts", "string", "", 0, object -> restarts(object, now)));
                columns.add(age);
                columns.add(new Column("IP", "string", "", 1, object -> text(object, "status", "podIP")));
                columns.add(new Column("Node", "string", "", 1, object -> text(object, "spec", "nodeName")));
            }
            case "Namespace" -> {
                columns.add(new Column("Status", "string", "", 0, object -> text(object, "status", "phase")));
                columns.add(age);
            }
            case "Deployment" -> {
                columns.add(new Column("Ready", "string", "", 0, object -> object.path("status").path("readyReplicas").asInt()
                        + "/" + object.path("spec").path("replicas").asInt()));
                columns.add(new Column("Up-to-date", "integer", "", 0,
                        object -> object.path("status").path("updatedReplicas").asInt()));
                columns.add(new Column("Available", "integer", "", 0,
                        object -> object.path("status").path("availableReplicas").asInt()));
                columns.add(age);
            }
            case "StatefulSet" -> {
                columns.add(new Column("Ready", "string", "", 0, object -> object.path("status").path("readyReplicas").asInt()
                        + "/" + object.path("spec").path("replicas").asInt()));
                columns.add(age);
                columns.add(new Column("Containers", "string", "", 1, object -> containers(object, "name")));
                columns.add(new Column("Images", "string", "", 1, object -> containers(object, "image")));
            }
            case "DaemonSet" -> {
                for (String[] count : new String[][] {{"Desired", "desiredNumberScheduled"}, {"Current", "currentNumberScheduled"},
                        {"Ready", "numberReady"}, {"Up-to-date", "updatedNumberScheduled"}, {"Available", "numberAvailable"}}) {
                    columns.add(new Column(count[0], "integer", "", 0, object -> object.path("status").path(count[1]).asInt()));
                }
                columns.add(new Column("Node Selector", "string", "", 0,
                        object -> labels(object.path("spec").path("template").path("spec").path("nodeSelector"))));
                columns.add(age);
                columns.add(new Column("Containers", "string", "", 1, object -> containers(object, "name")));
                columns.add(new Column("Images", "string", "", 1, object -> containers(object, "image")));
                columns.add(new Column("Selector", "string", "", 1,
                        object -> labels(object.path("spec").path("selector").path("matchLabels"))));
            }
            case "Widget" -> columns.add(new Column("Age", "date", "", 0, object -> age(object, now)));
            case "ConfigMap" -> {
                columns.add(new Column("Data", "integer", "", 0,
                        object -> object.path("data").size() + object.path("binaryData").size()));
                columns.add(age);
            }
            case "Secret" -> {
                columns.add(new Column("Type", "string", "", 0, object -> text(object, "type")));
                columns.add(new Column("Data", "integer", "", 0, object -> object.path("data").size()));
                columns.add(age);
            }
            case "Service" -> {
                columns.add(new Column("Type", "string", "", 0, object -> text(object, "spec", "type")));
                columns.add(new Column("Cluster-IP", "string", "", 0, object -> text(object, "spec", "clusterIP")));
                columns.add(new Column("External-IP", "string", "", 0, object -> "<none>"));
                columns.add(new Column("Port(s)", "string", "", 0, Tables::servicePorts));
                columns.add(age);
            }
            case "Event" -> {
                // events.k8s.io/v1 names the fields of core v1 differently; the printer is the same.
                boolean v1 = type.group().isEmpty();
                String regarding = v1 ? "involvedObject" : "regarding";
                columns.clear();
                columns.add(new Column("Last Seen", "string", "", 0, object -> age(object, now)));
                columns.add(new Column("Type", "string", "", 0, object -> text(object, "type")));
                columns.add(new Column("Reason", "string", "", 0, object -> text(object, "reason")));
                columns.add(new Column("Object", "string", "", 0, object -> text(object, regarding, "kind")
                        .toLowerCase(Locale.ROOT) + "/" + text(object, regarding, "name")));
                columns.add(new Column("Message", "string", "", 0, object -> text(object, v1 ? "message" : "note")));
                columns.add(new Column("Name", "string", "name", 1, object -> text(object, "metadata", "name")));
            }
            default -> columns.add(new Column("Created At", "date", "", 0, object -> text(object, "metadata", "creationTimestamp")));
        }
        return columns;
    }

    private static String podReady(ObjectNode pod) {
        int total = pod.path("spec").path("containers").size();
        int ready = 0;
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            if (status.path("ready").asBoolean()) {
                ready++;
            }
        }
        return ready + "/" + total;
    }

    /** The sum of the containers' restarts, and how long ago the latest ended: "2 (5m ago)". */
    private static String restarts(ObjectNode pod, Instant now) {
        int restarts = 0;
        String lastEnded = "";
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            restarts += status.path("restartCount").asInt();
            String finished = status.path("lastState").path("terminated").path("finishedAt").asText("");
            if (finished.compareTo(lastEnded) > 0) {
                lastEnded = finished;
            }
        }
        if (restarts == 0 || lastEnded.isEmpty()) {
            return Integer.toString(restarts);
        }
        return restarts + " (" + duration(Duration.between(Instant.parse(lastEnded), now)) + " ago)";
    }

    private static String containers(ObjectNode workload, String field) {
        List<String> values = new ArrayList<>();
        workload.path("spec").path("template").path("spec").path("containers").forEach(c -> values.add(c.path(field).asText()));
        return String.join(",", values);
    }

    private static String labels(JsonNode map) {
        List<String> pairs = new ArrayList<>();
        map.properties().forEach(entry -> pairs.add(entry.getKey() + "=" + entry.getValue().asText()));
        return pairs.isEmpty() ? "<none>" : String.join(",", pairs);
    }

    private static String servicePorts(ObjectNode service) {
        List<String> ports = new ArrayList<>();
        for (JsonNode port : service.path("spec").path("ports")) {
            ports.add(port.path("port").asInt() + "/" + port.path("protocol").asText("TCP"));
        }
        return ports.isEmpty() ? "<none>" : String.join(",", ports);
    }

    private static String text(ObjectNode object, String... path) {
        return Json.string(object, path).orElse("");
    }

    /** kubectl's short duration (k8s.io/apimachinery/pkg/util/duration.HumanDuration), roughly. */
    static String age(ObjectNode object, Instant now) {
        String created = text(object, "metadata", "creationTimestamp");
        if (created.isEmpty()) {
            return "<unknown>";
        }
        return duration(Duration.between(Instant.parse(created), now));
    }

    private static String duration(Duration age) {
        long seconds = Math.max(0, age.toSeconds());
        if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            long rest = seconds % 60;
            return rest == 0 ? minutes + "m" : minutes + "m" + rest + "s";
        }
        if (minutes < 180) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 48) {
            return hours + "h";
        }
        return hours / 24 + "d";
    }
}
