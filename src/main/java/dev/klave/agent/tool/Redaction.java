package dev.klave.agent.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Spec 3 §8 "Secrets handling": in every answer that can carry a core-group Secret, each value of
 * {@code data} and {@code stringData} becomes {@code <redacted, N bytes>} and the
 * {@code kubectl.kubernetes.io/last-applied-configuration} annotation (which holds them again) is
 * removed. In a held write's preview a value the write changes reads
 * {@code <redacted, N bytes, changed>}, so that a change of the same size shows.
 */
final class Redaction {
    static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private Redaction() {}

    /** Whether {@code object} is a core-group Secret (apiVersion {@code v1}, kind {@code Secret}). */
    static boolean secret(JsonNode object) {
        return object != null && object.path("kind").asText().equals("Secret")
                && object.path("apiVersion").asText().equals("v1");
    }

    /** A copy of {@code object} with a Secret's values hidden; anything else unchanged. */
    static JsonNode redact(JsonNode object) {
        return redact(object, Optional.empty());
    }

    /**
     * A copy of an answer with every Secret in it hidden, wherever it is: the answer itself, the
     * items of a {@code SecretList} (whose items name no kind), and any object nested in a list, a
     * {@code List} or a Table row. An answer need not be the kind that was asked for (a name that
     * reads as the collection answers a list), so nothing is assumed of its shape.
     */
    static JsonNode everywhere(JsonNode answer) {
        if (answer instanceof ArrayNode array) {
            ArrayNode copy = array.arrayNode();
            array.forEach(element -> copy.add(everywhere(element)));
            return copy;
        }
        if (!(answer instanceof ObjectNode object)) {
            return answer;
        }
        if (secret(object)) {
            return redact(object);
        }
        boolean secretList = object.path("kind").asText().equals("SecretList")
                && object.path("apiVersion").asText().equals("v1");
        ObjectNode copy = object.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (secretList && field.getKey().equals("items") && field.getValue() instanceof ArrayNode items) {
                ArrayNode hidden = copy.putArray("items");
                items.forEach(item -> hidden.add(item instanceof ObjectNode one ? values(one.deepCopy(),
                        Optional.empty()) : everywhere(item)));
            } else {
                copy.set(field.getKey(), everywhere(field.getValue()));
            }
        }
        return copy;
    }

    /**
     * A copy with a Secret's values hidden, marking those that differ from {@code before}'s (the
     * object as it is now, for a preview).
     */
    static JsonNode redact(JsonNode object, Optional<JsonNode> before) {
        if (!secret(object)) {
            return object;
        }
        return values((ObjectNode) object.deepCopy(), before);
    }

    /** Hides the values of a Secret, in place, and drops the annotation that repeats them. */
    private static ObjectNode values(ObjectNode copy, Optional<JsonNode> before) {
        JsonNode annotations = copy.path("metadata").path("annotations");
        if (annotations instanceof ObjectNode map) {
            map.remove(LAST_APPLIED);
            if (map.isEmpty()) {
                ((ObjectNode) copy.get("metadata")).remove("annotations");
            }
        }
        hide(copy, "data", true, before);
        hide(copy, "stringData", false, before);
        return copy;
    }

    private static void hide(ObjectNode secret, String field, boolean base64, Optional<JsonNode> before) {
        if (!(secret.get(field) instanceof ObjectNode values)) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> entries = values.fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            byte[] value = bytes(entry.getValue(), base64);
            boolean changed = before.isPresent() && !java.util.Arrays.equals(value,
                    previous(before.get(), entry.getKey()));
            entry.setValue(secret.textNode("<redacted, " + value.length + " bytes" + (changed ? ", changed" : "")
                    + ">"));
        }
    }

    /** The value a key had before the write, decoded; null when it had none. */
    private static byte[] previous(JsonNode before, String key) {
        JsonNode data = before.path("data").get(key);
        if (data != null) {
            return bytes(data, true);
        }
        JsonNode text = before.path("stringData").get(key);
        return text == null ? null : bytes(text, false);
    }

    private static byte[] bytes(JsonNode value, boolean base64) {
        String text = value.asText("");
        if (!base64) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException notBase64) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
    }
}
