package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.Eventually;
import dev.klave.testing.TestingDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class PostgresAuditStoreTest extends AuditStoreConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }

    /**
     * Issue 32: every filter of the listing, on its first page and after a cursor, can be read from
     * an index in the listing's order: with sequential scans and sorts priced out, the plan has
     * neither (were no index able to serve it, PostgreSQL would still have to use them).
     */
    @Test
    void everyListingFilterIsServedByAnIndexInOrderWithoutASort() {
        java.util.Optional<dev.klave.audit.AuditCursor> cursor = java.util.Optional.of(new dev.klave.audit.AuditCursor(
                java.time.Instant.parse("2026-11-25T10:00:00Z"), "0193a1b2-0000-7000-8000-000000000000"));
        for (var filter : everyFilter().entrySet()) {
            for (var after : List.of(java.util.Optional.<dev.klave.audit.AuditCursor>empty(), cursor)) {
                String plan = String.join("\n", audit.listingPlan(filter.getValue(), after));

                assertThat(plan).as(filter.getKey() + " " + plan).doesNotContain("\"Seq Scan\"")
                        .doesNotContain("\"Sort\"").doesNotContain("\"Incremental Sort\"");
            }
        }
    }

    /**
     * PostgreSQL reads the access generation inside the batch's statement, before its rows are written
     * (PostgresAuditBatch); an access change that comes after that read must wait for the batch's
     * commit. (On SQLite the batch holds the only write lock throughout.) The batch is held
     * between its read and its commit by another transaction's uncommitted row with one of its
     * ids: its insert waits for that transaction, which then rolls back.
     */
    @Test
    void anAccessChangeThatComesWhileABatchIsWrittenCommitsAfterItsRows() throws Exception {
        long before = accessChanges.generation();
        String blocked = ids.next();
        CountDownLatch inserted = new CountDownLatch(1);
        CountDownLatch rollBack = new CountDownLatch(1);
        Thread other = Thread.ofPlatform().start(() -> database().withHandle(handle -> {
            handle.begin();
            handle.execute("INSERT INTO audit (id, at, cluster_id, verb, path) VALUES (CAST(? AS uuid), 0, 'prod-1', 'get', '/api')",
                    blocked);
            inserted.countDown();
            awaitQuietly(rollBack);
            handle.rollback();
            return null;
        }));
        // Rolled back in any case: an open transaction would hold the row and its lock for later tests.
        try {
            assertThat(inserted.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Long> read = CompletableFuture.supplyAsync(
                    () -> audit.write(List.of(pending(blocked)), List.of()));
            assertHeld("the batch waiting for the other transaction's row", read);

            AtomicBoolean rowsVisibleToTheChange = new AtomicBoolean();
            Thread change = Thread.ofPlatform().start(() -> {
                bumpAccessChanges();
                rowsVisibleToTheChange.set(audit.findById(blocked).isPresent());
            });
            Eventually.until("the change waiting for a lock too", Duration.ofSeconds(10),
                    () -> sessionsWaitingForLocks() >= 2 || !change.isAlive());
            assertThat(change.isAlive()).as("the change waits for the batch").isTrue();

            rollBack.countDown();
            assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(before);
            assertThat(change.join(Duration.ofSeconds(10))).isTrue();
            assertThat(rowsVisibleToTheChange).as("the batch's row was committed before the change").isTrue();
            assertThat(accessChanges.generation()).isEqualTo(before + 1);
        } finally {
            rollBack.countDown();
            other.join(Duration.ofSeconds(10));
        }
    }

    /** PostgreSQL shows a session waiting for another's lock: the wait ends when that sign shows. */
    @Override
    void assertHeld(String what, CompletableFuture<?> write) {
        Eventually.until(what, Duration.ofSeconds(10), () -> sessionsWaitingForLocks() >= 1 || write.isDone());
        assertThat(write).as(what).isNotDone();
    }

    /** Sessions of this test's database waiting for a lock another transaction holds. */
    private int sessionsWaitingForLocks() {
        return database().withHandle(handle -> handle.createQuery("SELECT count(*) FROM pg_stat_activity "
                + "WHERE datname = current_database() AND wait_event_type = 'Lock'").mapTo(Integer.class).one());
    }

    /**
     * Issue 32: a listing's bounded total reads no completion unless its filter is on the status;
     * whether a counted row was refused is a probe of V26's partial index of the refused few.
     */
    @Test
    void aBoundedTotalProbesOnlyTheIndexOfRefusedRows() {
        for (var filter : everyFilter().entrySet()) {
                String plan = String.join("\n", audit.countPlan(filter.getValue()));
                // PostgreSQL removes the LEFT JOIN that nothing reads; its key would be probed otherwise.
                assertThat(plan).as(filter.getKey() + " " + plan).doesNotContain("audit_completion_pkey")
                        .doesNotContain("\"Seq Scan\"");
                boolean hidesRefused = !filter.getValue().includeDiscovery() || filter.getValue().resource().isPresent();
                assertThat(String.join("\n", audit.countPlan(filter.getValue()))).as(filter.getKey())
                        .matches(text -> text.contains("audit_completion_refused") == hidesRefused,
                                "probes audit_completion_refused exactly when refused rows are hidden");
        }
    }
}
