package dev.klave.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Query;
import java.util.ArrayList;
import java.util.List;

/**
 * A held call's path and query as stored (V27): the decoded segments as a JSON array of strings,
 * the pairs as a JSON array of {@code [name, value]}. Read back through {@link ClusterPath#of} and
 * {@link Query#with}, so a stored part is checked again and encoded once, as when it was made.
 */
final class HeldCallJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private HeldCallJson() {}

    static String path(ClusterPath path) {
        ArrayNode segments = MAPPER.createArrayNode();
        path.segments().forEach(segments::add);
        return segments.toString();
    }

    static String query(Query query) {
        ArrayNode pairs = MAPPER.createArrayNode();
        query.pairs().forEach(pair -> pairs.addArray().add(pair.name()).add(pair.value()));
        return pairs.toString();
    }

    /** @throws IllegalStateException for a row whose path is missing or not an array of strings */
    static ClusterPath path(String stored) {
        List<String> segments = new ArrayList<>();
        for (JsonNode segment : array(stored)) {
            if (!segment.isTextual()) {
                throw new IllegalStateException("a held call's path is an array of strings");
            }
            segments.add(segment.asText());
        }
        return ClusterPath.of(segments);
    }

    /** @throws IllegalStateException for a row whose query is missing or not an array of pairs */
    static Query query(String stored) {
        Query query = Query.NONE;
        for (JsonNode pair : array(stored)) {
            if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isTextual() || !pair.get(1).isTextual()) {
                throw new IllegalStateException("a held call's query is an array of [name, value]");
            }
            query = query.with(pair.get(0).asText(), pair.get(1).asText());
        }
        return query;
    }

    private static JsonNode array(String stored) {
        if (stored == null) {
            throw new IllegalStateException("a held call without its typed parts");
        }
        try {
            JsonNode node = MAPPER.readTree(stored);
            if (!node.isArray()) {
                throw new IllegalStateException("a held call's part is a JSON array");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a held call's part is not JSON", e);
        }
    }
}
