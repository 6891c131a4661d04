package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** One RFC 6902 operation (add, remove, replace, move, copy, test) on RFC 6901 pointers. */
final class JsonPatchOperation {
    private JsonPatchOperation() {
    }

    static JsonNode apply(JsonNode document, JsonNode operation) {
        String op = operation.path("op").asText();
        String path = operation.path("path").asText();
        return switch (op) {
            case "add" -> add(document, path, operation.get("value"));
            case "remove" -> remove(document, path);
            case "replace" -> replace(document, path, operation.get("value"));
            case "move" -> {
                JsonNode value = get(document, operation.path("from").asText());
                yield add(remove(document, operation.path("from").asText()), path, value);
            }
            case "copy" -> add(document, path, get(document, operation.path("from").asText()));
            case "test" -> {
                if (!get(document, path).equals(operation.get("value"))) {
                    throw ApiException.invalid("", "Patch", "", path, "testing value failed");
                }
                yield document;
            }
            default -> throw ApiException.badRequest("Unexpected kind: " + op);
        };
    }

    private static JsonNode add(JsonNode document, String path, JsonNode value) {
        if (value == null) {
            throw ApiException.badRequest("missing value for add operation at " + path);
        }
        List<String> steps = steps(path);
        if (steps.isEmpty()) {
            return value.deepCopy();
        }
        JsonNode parent = walk(document, steps.subList(0, steps.size() - 1), path);
        String last = steps.getLast();
        if (parent instanceof ObjectNode object) {
            object.set(last, value.deepCopy());
        } else if (parent instanceof ArrayNode array) {
            if (last.equals("-")) {
                array.add(value.deepCopy());
            } else {
                int index = index(last, array.size() + 1, path);
                array.insert(index, value.deepCopy());
            }
        } else {
            throw missing(path);
        }
        return document;
    }

    /** Replaces in place, so the member keeps its position (remove then add would move it last). */
    private static JsonNode replace(JsonNode document, String path, JsonNode value) {
        List<String> steps = steps(path);
        if (steps.isEmpty() || value == null) {
            return add(remove(document, path), path, value);
        }
        JsonNode parent = walk(document, steps.subList(0, steps.size() - 1), path);
        String last = steps.getLast();
        if (parent instanceof ObjectNode object && object.has(last)) {
            object.set(last, value.deepCopy());
        } else if (parent instanceof ArrayNode array) {
            array.set(index(last, array.size(), path), value.deepCopy());
        } else {
            throw missing(path);
        }
        return document;
    }

    private static JsonNode remove(JsonNode document, String path) {
        List<String> steps = steps(path);
        JsonNode parent = walk(document, steps.subList(0, steps.size() - 1), path);
        String last = steps.getLast();
        if (parent instanceof ObjectNode object && object.has(last)) {
            object.remove(last);
        } else if (parent instanceof ArrayNode array) {
            array.remove(index(last, array.size(), path));
        } else {
            throw missing(path);
        }
        return document;
    }

    private static JsonNode get(JsonNode document, String path) {
        return walk(document, steps(path), path);
    }

    private static JsonNode walk(JsonNode document, List<String> steps, String path) {
        JsonNode node = document;
        for (String step : steps) {
            if (node instanceof ArrayNode array) {
                node = array.get(index(step, array.size(), path));
            } else if (node instanceof ObjectNode object && object.has(step)) {
                node = object.get(step);
            } else {
                throw missing(path);
            }
        }
        return node;
    }

    private static int index(String step, int limit, String path) {
        try {
            int index = Integer.parseInt(step);
            if (index < 0 || index >= limit) {
                throw missing(path);
            }
            return index;
        } catch (NumberFormatException e) {
            throw missing(path);
        }
    }

    private static List<String> steps(String path) {
        List<String> steps = new ArrayList<>();
        if (path.isEmpty()) {
            return steps;
        }
        for (String raw : path.substring(1).split("/", -1)) {
            steps.add(raw.replace("~1", "/").replace("~0", "~"));
        }
        return steps;
    }

    private static ApiException missing(String path) {
        return ApiException.invalid("", "Patch", "", path, "doc is missing path: \"" + path + "\": missing value");
    }
}
