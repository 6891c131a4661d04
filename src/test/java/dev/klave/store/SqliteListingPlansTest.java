package dev.klave.store;

import dev.klave.testing.TestingDatabase;
import java.util.List;
import java.util.regex.Pattern;

/** SQLite's {@code EXPLAIN QUERY PLAN}: no {@code SCAN} of a table without an index, no temporary B-tree. */
class SqliteListingPlansTest extends ListingPlansConformance {
    /** "SCAN c" alone reads the table whole; "SCAN c USING INDEX …" walks an index in its order. */
    private static final Pattern WHOLE_TABLE = Pattern.compile("SCAN \\w+( AS \\w+)?");
    private static final Pattern ARM = Pattern.compile("SCAN arm\\d+");

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
        List<String> offending = new java.util.ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            String step = steps.get(i);
            // An arm of a merged listing (ControlEventListing) is a co-routine, and its sort orders
            // at most offset + limit rows that an index walk produced, not a table.
            boolean ofAnArm = ARM.matcher(step).matches()
                    || step.contains("TEMP B-TREE") && i > 0 && ARM.matcher(steps.get(i - 1)).matches();
            if (!ofAnArm && (WHOLE_TABLE.matcher(step).matches() || step.contains("TEMP B-TREE"))) {
                offending.add(step + " (plan: " + steps + ")");
            }
        }
        return offending;
    }
}
