package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The three PATCH formats: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and a strategic
 * merge patch that merges lists of objects by their merge key (name, or containerPort for ports)
 * and honours the {@code $patch}, {@code $setElementOrder} and {@code $retainKeys} directives
 * kubectl sends. The merge keys are guessed from the data, not read from a schema.
 */
final class Patches {
    private Patches() {
    }

    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : Json.object();
        patch.properties().forEach(entry -> {
            if (entry.getValue().isNull()) {
                result.remove(entry.getKey());
            } else {
                result.set(entry.getKey(), mergePatch(result.get(entry.getKey()), entry.getValue()));
            }
        });
        return result;
    }

    static JsonNode strategicMergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        if (patch.path("$patch").asText().equals("replace")) {
            ObjectNode replacement = ((ObjectNode) patch).deepCopy();
            replacement.remove("$patch");
            return replacement;
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy() : Json.object();
        Map<String, JsonNode> orders = new LinkedHashMap<>();
        patch.properties().forEach(entry -> {
            String key = entry.getKey();
            JsonNode value = entry.getValue();
            if (key.startsWith("$setElementOrder/")) {
                orders.put(key.substring("$setElementOrder/".length()), value);
                return;
            }
            if (key.startsWith("$deleteFromPrimitiveList/")) {
                String field = key.substring("$deleteFromPrimitiveList/".length());
                if (result.get(field) instanceof ArrayNode list) {
                    List<JsonNode> kept = new ArrayList<>();
                    list.forEach(item -> {
                        if (!contains(value, item)) {
                            kept.add(item);
                        }
                    });
                    result.putArray(field).addAll(kept);
                }
                return;
            }
            if (key.startsWith("$")) {
                return;
            }
            if (value.isNull()) {
                result.remove(key);
            } else if (value.isArray() && result.get(key) instanceof ArrayNode current) {
                result.set(key, mergeList(key, current, (ArrayNode) value));
            } else if (value.isObject() && value.path("$patch").asText().equals("delete")) {
                result.remove(key);
            } else {
                result.set(key, strategicMergePatch(result.get(key), value));
            }
        });
        if (patch.get("$retainKeys") instanceof ArrayNode retained) {
            Iterator<String> names = result.fieldNames();
            while (names.hasNext()) {
                if (!contains(retained, result.textNode(names.next()))) {
                    names.remove();
                }
            }
        }
        orders.forEach((field, order) -> {
            if (result.get(field) instanceof ArrayNode list) {
                result.set(field, reorder(field, list, (ArrayNode) order));
            }
        });
        return stripDirectives(result);
    }

    static JsonNode jsonPatch(JsonNode target, JsonNode operations) {
        if (!operations.isArray()) {
            throw ApiException.badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
        }
        JsonNode document = target.deepCopy();
        for (JsonNode operation : operations) {
            document = JsonPatchOperation.apply(document, operation);
        }
        return document;
    }

    /** Merges a patch list into a live list by merge key; primitive or keyless lists are replaced. */
    static ArrayNode mergeList(String field, ArrayNode current, ArrayNode patch) {
        Optional<String> mergeKey = mergeKey(field, patch).or(() -> mergeKey(field, current));
        if (mergeKey.isEmpty() || !allObjects(patch)) {
            ArrayNode replaced = Json.array();
            patch.forEach(item -> replaced.add(stripDirectives(item.deepCopy())));
            return replaced;
        }
        String key = mergeKey.get();
        ArrayNode merged = current.deepCopy();
        for (JsonNode item : patch) {
            int index = indexOf(merged, key, item.get(key));
            boolean delete = item.path("$patch").asText().equals("delete");
            if (delete) {
                if (index >= 0) {
                    merged.remove(index);
                }
            } else if (index >= 0) {
                merged.set(index, strategicMergePatch(merged.get(index), item));
            } else {
                merged.add(strategicMergePatch(Json.object(), item));
            }
        }
        return merged;
    }

    /** The field a list of objects is keyed by, as the Kubernetes API types declare it. */
    static Optional<String> mergeKey(String field, ArrayNode list) {
        if (!allObjects(list) || list.isEmpty()) {
            return Optional.empty();
        }
        List<String> candidates = switch (field) {
            case "ports" -> List.of("containerPort", "port");
            case "volumeMounts" -> List.of("mountPath");
            case "conditions" -> List.of("type");
            case "imagePullSecrets", "containers", "initContainers", "env", "volumes" -> List.of("name");
            case "rules", "subjects" -> List.of();
            default -> List.of("name");
        };
        for (String candidate : candidates) {
            boolean everyItemHasIt = true;
            for (JsonNode item : list) {
                everyItemHasIt &= item.has(candidate);
            }
            if (everyItemHasIt) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static ArrayNode reorder(String field, ArrayNode list, ArrayNode order) {
        Optional<String> key = mergeKey(field, order);
        ArrayNode sorted = Json.array();
        List<JsonNode> rest = new ArrayList<>();
        list.forEach(rest::add);
        for (JsonNode wanted : order) {
            for (Iterator<JsonNode> it = rest.iterator(); it.hasNext(); ) {
                JsonNode item = it.next();
                boolean same = key.map(name -> item.path(name).equals(wanted.path(name))).orElse(item.equals(wanted));
                if (same) {
                    sorted.add(item);
                    it.remove();
                    break;
                }
            }
        }
        rest.forEach(sorted::add);
        return sorted;
    }

    private static JsonNode stripDirectives(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.properties().removeIf(entry -> entry.getKey().startsWith("$"));
            object.forEach(Patches::stripDirectives);
        } else if (node instanceof ArrayNode array) {
            array.forEach(Patches::stripDirectives);
        }
        return node;
    }

    private static int indexOf(ArrayNode list, String key, JsonNode value) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).path(key).equals(value)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean allObjects(ArrayNode list) {
        for (JsonNode item : list) {
            if (!item.isObject()) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(JsonNode list, JsonNode value) {
        for (JsonNode item : list) {
            if (item.equals(value)) {
                return true;
            }
        }
        return false;
    }
}
