package dev.klave.store;

import dev.klave.testing.TestingDatabase;
import java.util.List;
import java.util.regex.Pattern;

/** SQLite's {@code EXPLAIN QUERY PLAN}: no {@code SCAN} of a table without an index, no temporary B-tree. */
class SqliteListingPlansTest extends ListingPlansConformance {
    /** "SCAN c" alone reads the table whole; "SCAN c USING INDEX …" walks an index in its order. */
    private static final Pattern WHOLE_TABLE = Pattern.compile("SCAN \\w+( AS \\w+)?");

    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }

    @Override
    protected List<String> offendingSteps(Database database, ListingSql.Statement statement) {
        List<String> steps = database.withHandle(handle -> handle.createQuery("EXPLAIN QUERY PLAN " + statement.sql())
                .bindMap(statement.parameters())
                .map((row, context) -> row.getString("detail"))
                .list());
        return steps.stream().filter(step -> WHOLE_TABLE.matcher(step).matches() || step.contains("TEMP B-TREE"))
                .map(step -> step + " (plan: " + steps + ")")
                .toList();
    }
}
