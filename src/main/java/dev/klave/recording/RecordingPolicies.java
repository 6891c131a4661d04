package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import dev.klave.messages.Message;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clusters' recording policies (issue 42), read by the relay without waiting for the database: a
 * copy in memory, read again every {@link #REFRESH} (a change made on another replica applies to
 * sessions opened after it within that) and at once after a change made here.
 */
public final class RecordingPolicies implements AutoCloseable {
    static final Duration REFRESH = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(RecordingPolicies.class);

    private final RecordingPolicyStore store;
    private final ClusterStore clusters;
    private final ControlEvents events;
    private final Transactions transactions;
    private final Clock clock;
    private final Map<ClusterId, RecordingPolicy> known = new ConcurrentHashMap<>();
    private ScheduledExecutorService scheduler;

    public RecordingPolicies(RecordingPolicyStore store, ClusterStore clusters, ControlEvents events,
            Transactions transactions, Clock clock) {
        this.store = requireNonNull(store, "store is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.events = requireNonNull(events, "events is null");
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public synchronized void start() {
        refresh();
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                    .name("klave-recording-policies").factory());
            scheduler.scheduleWithFixedDelay(() -> {
                try {
                    refresh();
                } catch (RuntimeException e) {
                    LOG.warn("recording policies: could not be read again, the last ones stand: {}", e.toString());
                }
            }, REFRESH.toMillis(), REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    void refresh() {
        Map<ClusterId, RecordingPolicy> read = store.all();
        known.keySet().retainAll(read.keySet());
        known.putAll(read);
    }

    /** The policy a session opening now on {@code cluster} follows (on, without a policy of its own). */
    public RecordingPolicy of(ClusterId cluster) {
        return known.getOrDefault(cluster, RecordingPolicy.ON);
    }

    /** @throws dev.klave.messages.Refusal 404 for an unknown cluster */
    public RecordingPolicy find(String clusterId) {
        return store.all().getOrDefault(cluster(clusterId), RecordingPolicy.ON);
    }

    /** @throws dev.klave.messages.Refusal 404 for an unknown cluster, 400 for a policy that is none of the three */
    public RecordingPolicy update(String clusterId, String code, Principal by) {
        ClusterId cluster = cluster(clusterId);
        RecordingPolicy policy;
        try {
            policy = RecordingPolicy.parse(code == null ? "" : code);
        } catch (IllegalArgumentException e) {
            throw Message.RECORDING_POLICY_INVALID.refusal();
        }
        transactions.inTransaction(() -> {
            store.save(cluster, policy, clock.instant(), by.login().value());
            events.event(EventType.RECORDING_POLICY_UPDATE).actor(by)
                    .details(Map.of("cluster", cluster.value(), "policy", policy.code())).record();
            return null;
        });
        known.put(cluster, policy);
        return policy;
    }

    private ClusterId cluster(String id) {
        return clusters.existing(id);
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
