package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.audit.AuditCursor;
import dev.klave.audit.AuditFilter;
import dev.klave.testing.TestingDatabase;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SqliteAuditStoreTest extends AuditStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }

    /**
     * Issue 32: every filter of the listing, on its first page and after a cursor, is read from an
     * index in the listing's order — never a scan of the table, never a sort of its matches.
     */
    @Test
    void everyListingFilterIsServedByAnIndexInOrderWithoutASort() {
        Optional<AuditCursor> cursor = Optional.of(new AuditCursor(Instant.parse("2026-11-25T10:00:00Z"),
                "0193a1b2-0000-7000-8000-000000000000"));
        for (Map.Entry<String, AuditFilter> filter : everyFilter().entrySet()) {
            for (Optional<AuditCursor> after : List.of(Optional.<AuditCursor>empty(), cursor)) {
                List<String> plan = audit.listingPlan(filter.getValue(), after);

                assertThat(plan).as(filter.getKey() + " " + plan).noneMatch(line -> line.contains("TEMP B-TREE"));
                assertThat(plan).as(filter.getKey() + " " + plan)
                        .noneMatch(line -> line.startsWith("SCAN a") && !line.contains("INDEX"));
                String column = switch (filter.getKey()) {
                    case "none", "from-to" -> "audit_by_time";
                    case "dry_runs" -> "audit_dry_runs";
                    default -> "audit_by_" + filter.getKey();
                };
                assertThat(String.join("\n", plan)).as(filter.getKey()).contains(column);
            }
        }
    }

    /**
     * Issue 32: a listing's bounded total joins no completion unless its filter is on the status;
     * whether a counted row was refused is one probe by key (SQLite prefers the completions' key
     * to V26's partial index, an equal lookup to it; PostgreSQL's test checks the partial index).
     */
    @Test
    void aBoundedTotalProbesOnlyWhetherARowWasRefused() {
        for (var filter : everyFilter().entrySet()) {
            List<String> plan = audit.countPlan(filter.getValue());
            // SQLite drops the LEFT JOIN that nothing reads; "c" would name the completions.
            assertThat(plan).as(filter.getKey() + " " + plan).noneMatch(line -> line.contains(" c "));
            boolean hidesRefused = !filter.getValue().includeDiscovery() || filter.getValue().resource().isPresent();
            assertThat(plan).as(filter.getKey() + " " + plan).matches(steps -> steps.stream().anyMatch(line -> line.startsWith("SEARCH r ")) == hidesRefused,
                            "probes the completions exactly when refused rows are hidden");
        }
    }
}
