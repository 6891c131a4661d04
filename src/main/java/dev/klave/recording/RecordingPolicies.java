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
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clusters' recording settings — the policy (issue 42) and whether stdin is recorded (issue 51) —
 * read by the relay without waiting for the database: a
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
    private final Map<ClusterId, ClusterRecording> known = new ConcurrentHashMap<>();
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
        Map<ClusterId, ClusterRecording> read = store.all();
        known.keySet().retainAll(read.keySet());
        known.putAll(read);
    }

    /** What a session opening now on {@code cluster} follows (on, stdin not, without settings of its own). */
    public ClusterRecording of(ClusterId cluster) {
        return known.getOrDefault(cluster, ClusterRecording.DEFAULT);
    }

    /** @throws dev.klave.messages.Refusal 404 for an unknown cluster */
    public ClusterRecording find(String clusterId) {
        return store.all().getOrDefault(cluster(clusterId), ClusterRecording.DEFAULT);
    }

    /**
     * Replaces a cluster's settings: {@code stdin} unsaid is off.
     *
     * @throws dev.klave.messages.Refusal 404 for an unknown cluster, 400 for a policy that is none of the three
     */
    public ClusterRecording update(String clusterId, String code, Optional<Boolean> stdin, Principal by) {
        ClusterId cluster = cluster(clusterId);
        RecordingPolicy policy;
        try {
            policy = RecordingPolicy.parse(code == null ? "" : code);
        } catch (IllegalArgumentException e) {
            throw Message.RECORDING_POLICY_INVALID.refusal();
        }
        ClusterRecording recording = new ClusterRecording(policy, stdin.map(Stdin::of).orElse(Stdin.NOT_RECORDED));
        transactions.inTransaction(() -> {
            store.save(cluster, recording, clock.instant(), by.login().value());
            events.event(EventType.RECORDING_POLICY_UPDATE).actor(by)
                    .details(Map.of("cluster", cluster.value(), "policy", policy.code(),
                            "stdin", String.valueOf(recording.stdin().recorded()))).record();
            return null;
        });
        known.put(cluster, recording);
        return recording;
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
