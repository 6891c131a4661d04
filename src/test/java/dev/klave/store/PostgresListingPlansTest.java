package dev.klave.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.TestingDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's {@code EXPLAIN (FORMAT JSON)} with sequential scans and sorts priced out of the way
 * ({@code SET LOCAL}, this transaction only): if the planner still picks a {@code Seq Scan} or a
 * {@code Sort}, no index can serve the shape.
 */
class PostgresListingPlansTest extends ListingPlansConformance {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }

    @Override
    protected List<String> offendingSteps(Database database, ListingSql.Statement statement) {
        String plan = database.inTransaction(() -> database.withHandle(handle -> {
            handle.execute("SET LOCAL enable_seqscan = off");
            handle.execute("SET LOCAL enable_sort = off");
            return handle.createQuery("EXPLAIN (FORMAT JSON) " + statement.sql())
                    .bindMap(statement.parameters())
                    .mapTo(String.class)
                    .one();
        }));
        List<String> offending = new ArrayList<>();
        try {
            collect(JSON.readTree(plan).get(0).get("Plan"), offending);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return offending.stream().map(step -> step + " (plan: " + plan + ")").toList();
    }

    private static void collect(JsonNode node, List<String> offending) {
        String type = node.get("Node Type").asText();
        if (type.equals("Seq Scan") || type.contains("Sort")) {
            offending.add(type + " " + node.path("Relation Name").asText(""));
        }
        for (JsonNode child : node.path("Plans")) {
            collect(child, offending);
        }
    }
}
