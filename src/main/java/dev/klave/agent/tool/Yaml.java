package dev.klave.agent.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.UncheckedIOException;

/** JSON and YAML as the tools read and write them (Jackson; YAML without the document marker). */
final class Yaml {
    static final ObjectMapper MAPPER = new ObjectMapper();
    /** Keys in order, so that equal arguments give equal text whatever order they came in. */
    private static final ObjectMapper CANONICAL = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(com.fasterxml.jackson.databind.cfg.JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .build();
    private static final YAMLMapper YAML = new YAMLMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build());

    private Yaml() {}

    static String write(JsonNode node) {
        try {
            return YAML.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String json(JsonNode node) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String canonical(JsonNode node) {
        try {
            return CANONICAL.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String compact(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every document of a YAML stream (empty ones skipped). */
    static java.util.List<JsonNode> readAll(String text) throws JsonProcessingException {
        java.util.List<JsonNode> documents = new java.util.ArrayList<>();
        try (com.fasterxml.jackson.databind.MappingIterator<JsonNode> values = YAML.readerFor(JsonNode.class)
                .readValues(text)) {
            while (values.hasNext()) {
                JsonNode document = values.next();
                if (document != null && !document.isNull() && !document.isMissingNode()) {
                    documents.add(document);
                }
            }
        } catch (JsonProcessingException e) {
            throw e;
        } catch (java.io.IOException | RuntimeException e) {
            throw new com.fasterxml.jackson.core.JsonParseException(null, "not YAML: " + e.getMessage());
        }
        return documents;
    }

    /** One document, in YAML or JSON (JSON is YAML). */
    static JsonNode read(String text) throws JsonProcessingException {
        return YAML.readTree(text);
    }
}
