package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code metadata.managedFields}, kept minimally: each manager owns a set of leaf field paths,
 * written in the FieldsV1 notation ({@code f:data}, {@code k:{"name":"app"}}). Enough to report
 * apply conflicts and to remove the fields a manager stops applying; it is not
 * structured-merge-diff (no schema, lists of objects keyed by a guessed merge key).
 */
final class ManagedFields {
    /** One managedFields entry: who, how (Apply or Update) and which paths. */
    record Entry(String manager, String operation, String apiVersion, Set<List<String>> paths) {
    }

    private static final Set<String> SERVER_METADATA = Set.of("name", "namespace", "uid", "resourceVersion",
            "creationTimestamp", "generation", "managedFields", "deletionTimestamp", "selfLink");

    private ManagedFields() {
    }

    static List<Entry> read(JsonNode object) {
        List<Entry> entries = new ArrayList<>();
        for (JsonNode entry : object.path("metadata").path("managedFields")) {
            Set<List<String>> paths = new LinkedHashSet<>();
            collect(entry.path("fieldsV1"), new ArrayList<>(), paths);
            entries.add(new Entry(entry.path("manager").asText(), entry.path("operation").asText(),
                    entry.path("apiVersion").asText(), paths));
        }
        return entries;
    }

    static void write(ObjectNode object, List<Entry> entries, Instant now) {
        ArrayNode array = Json.objectAt(object, "metadata").putArray("managedFields");
        for (Entry entry : entries) {
            if (entry.paths().isEmpty()) {
                continue;
            }
            ObjectNode node = array.addObject();
            node.put("manager", entry.manager());
            node.put("operation", entry.operation());
            node.put("apiVersion", entry.apiVersion());
            node.put("time", now.toString());
            node.put("fieldsType", "FieldsV1");
            node.set("fieldsV1", toFieldsV1(entry.paths()));
        }
        if (array.isEmpty()) {
            ((ObjectNode) object.get("metadata")).remove("managedFields");
        }
    }

    /** Every leaf path of an object's user-settable content (not status, not server metadata). */
    static Set<List<String>> leafPaths(JsonNode object) {
        Set<List<String>> paths = new LinkedHashSet<>();
        object.properties().forEach(entry -> {
            String field = entry.getKey();
            if (field.equals("apiVersion") || field.equals("kind") || field.equals("status")) {
                return;
            }
            if (field.equals("metadata")) {
                entry.getValue().properties().forEach(meta -> {
                    if (!SERVER_METADATA.contains(meta.getKey())) {
                        leaves(meta.getKey(), meta.getValue(), new ArrayList<>(List.of("f:metadata")), paths);
                    }
                });
                return;
            }
            leaves(field, entry.getValue(), new ArrayList<>(), paths);
        });
        return paths;
    }

    static Optional<JsonNode> valueAt(JsonNode object, List<String> path) {
        JsonNode node = object;
        for (String step : path) {
            if (step.startsWith("f:")) {
                node = node.path(step.substring(2));
            } else if (step.startsWith("k:")) {
                JsonNode key = Json.parse(step.substring(2).getBytes(StandardCharsets.UTF_8));
                Map.Entry<String, JsonNode> keyField = key.properties().iterator().next();
                JsonNode found = null;
                for (JsonNode item : node) {
                    if (item.path(keyField.getKey()).equals(keyField.getValue())) {
                        found = item;
                    }
                }
                node = found == null ? MissingNode.getInstance() : found;
            } else {
                return Optional.empty();
            }
            if (node.isMissingNode()) {
                return Optional.empty();
            }
        }
        return Optional.of(node);
    }

    static void removeAt(JsonNode object, List<String> path) {
        Optional<JsonNode> parent = valueAt(object, path.subList(0, path.size() - 1));
        String last = path.getLast();
        if (parent.isEmpty()) {
            return;
        }
        if (last.startsWith("f:") && parent.get() instanceof ObjectNode fields) {
            fields.remove(last.substring(2));
        } else if (last.startsWith("k:") && parent.get() instanceof ArrayNode items) {
            Optional<JsonNode> item = valueAt(object, path);
            for (int i = 0; i < items.size(); i++) {
                if (item.isPresent() && items.get(i) == item.get()) {
                    items.remove(i);
                    return;
                }
            }
        }
    }

    /** {@code .spec.containers[name="app"].image}, the way apply conflicts name a field. */
    static String describe(List<String> path) {
        StringBuilder text = new StringBuilder();
        for (String step : path) {
            if (step.startsWith("f:")) {
                text.append('.').append(step.substring(2));
            } else {
                JsonNode key = Json.parse(step.substring(2).getBytes(StandardCharsets.UTF_8));
                key.properties().forEach(entry -> text.append('[').append(entry.getKey()).append('=')
                        .append(entry.getValue().toString()).append(']'));
            }
        }
        return text.toString();
    }

    private static void leaves(String field, JsonNode value, List<String> prefix, Set<List<String>> paths) {
        List<String> path = new ArrayList<>(prefix);
        path.add("f:" + field);
        if (value.isObject() && !value.isEmpty()) {
            value.properties().forEach(entry -> leaves(entry.getKey(), entry.getValue(), path, paths));
            return;
        }
        if (value instanceof ArrayNode list && !list.isEmpty()) {
            Optional<String> mergeKey = Patches.mergeKey(field, list);
            if (mergeKey.isPresent()) {
                for (JsonNode item : list) {
                    ObjectNode key = Json.object();
                    key.set(mergeKey.get(), item.get(mergeKey.get()));
                    List<String> itemPath = new ArrayList<>(path);
                    itemPath.add("k:" + key);
                    item.properties().forEach(entry -> leaves(entry.getKey(), entry.getValue(), itemPath, paths));
                }
                return;
            }
        }
        paths.add(List.copyOf(path));
    }

    private static void collect(JsonNode node, List<String> prefix, Set<List<String>> paths) {
        boolean leaf = true;
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (entry.getKey().equals(".")) {
                continue;
            }
            leaf = false;
            List<String> path = new ArrayList<>(prefix);
            path.add(entry.getKey());
            collect(entry.getValue(), path, paths);
        }
        if (leaf && !prefix.isEmpty()) {
            paths.add(List.copyOf(prefix));
        }
    }

    private static ObjectNode toFieldsV1(Set<List<String>> paths) {
        ObjectNode root = Json.object();
        for (List<String> path : paths) {
            ObjectNode node = root;
            for (String step : path) {
                node = Json.objectAt(node, step);
            }
        }
        return root;
    }
}
