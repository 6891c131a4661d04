package dev.klave.reconcile;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Authority;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterEndpoints;
import dev.klave.cluster.ClusterStore;
import dev.klave.messages.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When passes run: soon after any grant or account change, when a grant has expired since the
 * last pass, and at least every few minutes. Passes run in the background; a pass already running
 * elsewhere (another replica) is simply skipped, the next tick catches up.
 */
public final class Reconciliations implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Reconciliations.class);
    /** Every cluster is reconciled at least this often, whatever happens. */
    static final Duration PERIOD = Duration.ofMinutes(3);
    private static final Duration TICK = Duration.ofSeconds(15);

    private final Reconciler reconciler;
    private final ClusterEndpoints endpoints;
    private final ClusterStore clusters;
    private final Authority authority;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final Set<String> queued = ConcurrentHashMap.newKeySet();

    /** @param endpoints the clusters' clients, of which those of clusters no longer registered are let go */
    public Reconciliations(Reconciler reconciler, ClusterStore clusters, Authority authority, ClusterEndpoints endpoints,
            Clock clock) {
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.reconciler = requireNonNull(reconciler, "reconciler is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.authority = requireNonNull(authority, "authority is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("klave-reconcile").factory());
    }

    /** Starts the periodic checks. */
    public void start() {
        scheduler.scheduleWithFixedDelay(this::tick, TICK.toSeconds(), TICK.toSeconds(), TimeUnit.SECONDS);
    }

    /** Asks for a pass of {@code cluster} soon; several requests before it runs make one pass. */
    public void request(ClusterId cluster) {
        if (queued.add(cluster.value())) {
            scheduler.execute(() -> {
                queued.remove(cluster.value());
                runQuietly(cluster);
            });
        }
    }

    /** After an account change: every cluster with tokens. */
    public void requestAll() {
        clusters.list().stream().filter(Cluster::hasTokens).forEach(cluster -> request(cluster.id()));
    }

    private void tick() {
        Instant now = clock.instant();
        List<Cluster> registered = clusters.list();
        // A cluster deleted on another replica: its clients here are let go too.
        endpoints.retainOnly(registered.stream().map(Cluster::id).collect(java.util.stream.Collectors.toSet()));
        for (Cluster cluster : registered) {
            if (cluster.hasTokens() && due(cluster, now)) {
                request(cluster.id());
            }
        }
    }

    private boolean due(Cluster cluster, Instant now) {
        Optional<Instant> last = cluster.lastReconciledAt();
        if (last.isEmpty() || !now.isBefore(last.get().plus(PERIOD))) {
            return true;
        }
        // A grant that expired since the last pass must leave the cluster now, not at the next period.
        return authority.lapsedBetween(cluster.id(), last.get(), now);
    }

    private void runQuietly(ClusterId cluster) {
        try {
            reconciler.reconcile(cluster);
        } catch (Refusal refusal) {
            LOG.debug("reconciliation of {} not run: {}", cluster, refusal.getMessage());
        } catch (RuntimeException e) {
            LOG.error("reconciliation of {} failed unexpectedly", cluster, e);
        }
    }

    /** Stops; a pass under way is interrupted and given a moment to release its lease before the database closes. */
    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            if (!scheduler.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("a reconciliation pass did not stop in time; its lease expires by itself");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
