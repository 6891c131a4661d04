package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Untrusted;
import dev.klave.storage.LeaseStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code SERVICE_AUDIT_RETENTION} (issue 32): audit rows older than the retention are deleted, a
 * thousand at a time, each batch its own short transaction with a pause between batches — so the
 * audit writer, which on SQLite shares the one write lock, waits at most one batch. One replica
 * at a time prunes (a lease); the others find it held and leave it. What a pass deleted is a
 * control event. Freed SQLite pages are reused by the rows written next, so the file stops
 * growing at the retention's size instead of growing for ever.
 */
public final class AuditRetention implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AuditRetention.class);
    static final String LEASE_NAME = "audit-retention";
    /** Longer than a pass is allowed to run; a replica that dies mid-pass frees it after this. */
    static final Duration LEASE = Duration.ofMinutes(10);
    /** A pass stops after this long, leaving the rest to the next pass, well inside the lease. */
    static final Duration PASS_BUDGET = Duration.ofMinutes(5);
    static final int BATCH = 1_000;
    static final Duration PAUSE = Duration.ofMillis(20);
    private static final Duration PERIOD = Duration.ofMinutes(10);

    private final AuditPruning store;
    private final LeaseStore leases;
    private final ControlEvents events;
    private final Duration retention;
    private final String replica;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;

    public AuditRetention(AuditPruning store, LeaseStore leases, ControlEvents events, Duration retention,
            String replica, Clock clock) {
        this.store = requireNonNull(store, "store is null");
        this.leases = requireNonNull(leases, "leases is null");
        this.events = requireNonNull(events, "events is null");
        this.retention = requireNonNull(retention, "retention is null");
        this.replica = requireNonNull(replica, "replica is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("klave-audit-retention").factory());
    }

    /** The first pass a minute from now, then every ten minutes. */
    public void start() {
        LOG.info("audit rows older than {} are deleted (SERVICE_AUDIT_RETENTION)", retention);
        scheduler.scheduleWithFixedDelay(this::runQuietly, 60, PERIOD.toSeconds(), TimeUnit.SECONDS);
    }

    private void runQuietly() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            // The next pass tries again; a failure must not end the schedule.
            LOG.error("audit retention pass failed: {}", Untrusted.text(String.valueOf(e.getMessage())), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One pass: how many rows it deleted, or -1 when another replica holds the lease. */
    public long runOnce() throws InterruptedException {
        Instant start = clock.instant();
        if (!leases.tryAcquire(LEASE_NAME, replica, start, LEASE)) {
            return -1;
        }
        long deleted = 0;
        Instant before = start.minus(retention);
        try {
            while (true) {
                int batch = store.deleteBefore(before, BATCH);
                deleted += batch;
                if (batch < BATCH || Duration.between(start, clock.instant()).compareTo(PASS_BUDGET) > 0) {
                    break;
                }
                Thread.sleep(PAUSE);
            }
        } finally {
            leases.release(LEASE_NAME, replica);
            if (deleted > 0) {
                LOG.info("audit retention: {} rows from before {} deleted", deleted, before);
                events.event(EventType.AUDIT_RETENTION).details(Map.of("deleted", deleted, "before",
                        before.toString(), "retention", retention.toString())).record();
            }
        }
        return deleted;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
