package dev.klave.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Jackson helpers: objects are kept as JSON trees, as the API server stores unstructured data. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    private Json() {
    }

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    static ArrayNode array() {
        return JsonNodeFactory.instance.arrayNode();
    }

    static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String text(JsonNode node) {
        return node.toString();
    }

    /** Parses a request body; a body that is no JSON object is the client's fault. */
    static ObjectNode parseObject(byte[] body) {
        JsonNode node = parse(body);
        if (!(node instanceof ObjectNode object)) {
            throw ApiException.badRequest("the body of the request was not a JSON object");
        }
        return object;
    }

    static JsonNode parse(byte[] body) {
        try {
            return MAPPER.readTree(body);
        } catch (IOException e) {
            throw ApiException.badRequest("the body of the request was in an unknown format: " + e.getMessage());
        }
    }

    static ObjectNode parseYamlObject(byte[] body) {
        try {
            JsonNode node = YAML.readTree(body);
            if (node instanceof ObjectNode object) {
                return object;
            }
        } catch (IOException e) {
            throw ApiException.badRequest("error decoding YAML: " + e.getMessage());
        }
        throw ApiException.badRequest("the body of the request was not a YAML object");
    }

    static ObjectNode parseObject(String text) {
        return parseObject(text.getBytes(StandardCharsets.UTF_8));
    }

    static Optional<String> string(JsonNode node, String... path) {
        JsonNode current = node;
        for (String step : path) {
            if (current == null || !current.isObject()) {
                return Optional.empty();
            }
            current = current.get(step);
        }
        return current == null || current.isNull() || !current.isValueNode()
                ? Optional.empty() : Optional.of(current.asText());
    }

    static ObjectNode objectAt(ObjectNode parent, String field) {
        JsonNode child = parent.get(field);
        if (child instanceof ObjectNode object) {
            return object;
        }
        return parent.putObject(field);
    }

    static Map<String, String> stringMap(JsonNode node) {
        Map<String, String> map = new LinkedHashMap<>();
        if (node != null && node.isObject()) {
            node.properties().forEach(entry -> map.put(entry.getKey(), entry.getValue().asText()));
        }
        return map;
    }
}
