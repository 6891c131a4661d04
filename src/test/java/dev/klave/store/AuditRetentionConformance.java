package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.audit.AuditIds;
import dev.klave.audit.AuditRetention;
import dev.klave.audit.AuditRow;
import dev.klave.audit.ControlEvents;
import dev.klave.testing.TestingAuditRows;
import dev.klave.testing.TestingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * {@code SERVICE_AUDIT_RETENTION} (issue 32): rows older than the retention go, with their
 * completions, a batch at a time; newer rows stay; one replica prunes at a time (a lease), two at
 * once delete each row once; a pass that deleted something is a control event.
 */
abstract class AuditRetentionConformance extends StoreConformance {
    private static final Duration KEPT = Duration.ofDays(400);

    private final TestingClock clock = new TestingClock();
    private JdbiAuditStore audit;
    private JdbiLeaseStore leases;
    private JdbiControlEventStore eventStore;

    @Override
    protected void setUp(Database database) {
        audit = new JdbiAuditStore(database);
        leases = new JdbiLeaseStore(database);
        eventStore = new JdbiControlEventStore(database);
    }

    private AuditRetention replica(String name) {
        return new AuditRetention(audit, leases, new ControlEvents(eventStore, clock), KEPT, name, clock);
    }

    /** {@code old} rows past the retention (completed later, as the proxy's are) and {@code fresh} within it. */
    private List<String> write(String cluster, int old, int fresh) {
        AuditIds ids = new AuditIds(clock);
        Instant now = clock.instant();
        List<AuditRow> rows = new ArrayList<>();
        List<AuditRow.Completion> completions = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < old + fresh; i++) {
            Instant at = i < old ? now.minus(KEPT).minusSeconds(1 + i) : now.minus(KEPT).plusSeconds(60 + i);
            String id = ids.next();
            rows.add(TestingAuditRows.opened(id, at, cluster,
                    TestingAuditRows.request("list", "team-a", "pods", "/api/v1/pods")));
            completions.add(new AuditRow.Completion(id, 200, Optional.empty(), at));
            if (i >= old) {
                kept.add(id);
            }
        }
        audit.write(rows, List.of());
        audit.write(List.of(), completions);
        return kept;
    }

    private long rows(String cluster) {
        return database().withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM audit WHERE cluster_id = :c")
                .bind("c", cluster).mapTo(Long.class).one());
    }

    private long orphanCompletions() {
        return database().withHandle(handle -> handle.createQuery("SELECT COUNT(*) FROM audit_completion c "
                + "WHERE NOT EXISTS (SELECT 1 FROM audit a WHERE a.id = c.id)").mapTo(Long.class).one());
    }

    private static final java.util.concurrent.atomic.AtomicInteger CLUSTERS = new java.util.concurrent.atomic.AtomicInteger();

    @Test
    void olderRowsGoWithTheirCompletionsInBatchesAndNewerOnesStay() throws Exception {
        String cluster = "retained-" + CLUSTERS.incrementAndGet();
        List<String> kept = write(cluster, 2_500, 30);

        long deleted = replica("replica-a").runOnce();

        assertThat(deleted).isEqualTo(2_500);
        assertThat(rows(cluster)).isEqualTo(30);
        assertThat(orphanCompletions()).isZero();
        for (String id : kept) {
            assertThat(audit.findById(id)).isPresent();
        }
        assertThat(eventStore.newestFirst(new dev.klave.audit.EventFilter(Optional.of("audit.retention"),
                Optional.empty(), Optional.empty(), Optional.empty()), 0, 1)).singleElement()
                .satisfies(event -> assertThat(event.details()).containsEntry("deleted", 2500));
        assertThat(replica("replica-a").runOnce()).isZero();
    }

    @Test
    void aReplicaFindingTheLeaseHeldLeavesThePassToTheOtherAndTwoAtOnceDeleteEachRowOnce() throws Exception {
        String cluster = "two-replicas-" + CLUSTERS.incrementAndGet();
        write(cluster, 3_000, 10);
        leases.tryAcquire("audit-retention", "replica-a", clock.instant(), Duration.ofMinutes(10));

        assertThat(replica("replica-b").runOnce()).isEqualTo(-1);
        assertThat(rows(cluster)).isEqualTo(3_010);
        leases.release("audit-retention", "replica-a");

        long total = 0;
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletableFuture<Long> a = CompletableFuture.supplyAsync(() -> pass(replica("replica-a")), threads);
            CompletableFuture<Long> b = CompletableFuture.supplyAsync(() -> pass(replica("replica-b")), threads);
            total += Math.max(a.join(), 0) + Math.max(b.join(), 0);
        }
        // Whichever lost the race runs again, as its schedule would.
        total += Math.max(replica("replica-b").runOnce(), 0);

        assertThat(total).isEqualTo(3_000);
        assertThat(rows(cluster)).isEqualTo(10);
    }

    private static long pass(AuditRetention retention) {
        try {
            return retention.runOnce();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
