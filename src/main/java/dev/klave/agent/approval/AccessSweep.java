package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.cluster.ClusterId;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@link #EVERY}, {@link #sweep}: a request unanswered in its 24 hours becomes
 * {@code expired}, and access that reached its end (or lost its grant) is recorded as ended, each
 * with its control event (issue 41: every transition an event). Every replica sweeps; the
 * conditional updates make each transition once.
 */
public final class AccessSweep implements AutoCloseable {
    /** How long before access ends its holder is told (issue 41 §2). */
    public static final Duration ENDING_NOTICE = Duration.ofMinutes(10);
    /** How often; ends are also cut, independently, by the reconciler and the proxy's own checks. */
    public static final Duration EVERY = Duration.ofSeconds(30);
    /** At most this many of each transition per pass: a backlog is worked through pass by pass. */
    static final int BATCH = 200;
    private static final Logger LOG = LoggerFactory.getLogger(AccessSweep.class);

    private final Transactions transactions;
    private final AccessRequestStore store;
    private final RequestEvents events;
    private final RequestNotices notices;
    private final Consumer<ClusterId> changed;
    private final Clock clock;
    private ScheduledExecutorService scheduler;

    /** @param changed told of a cluster whose access ended (a pass of its reconciler) */
    public AccessSweep(Transactions transactions, AccessRequestStore store, SubjectStore subjects,
            ControlEvents events, RequestNotices notices, Consumer<ClusterId> changed, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.store = requireNonNull(store, "store is null");
        this.events = new RequestEvents(subjects, events);
        this.notices = requireNonNull(notices, "notices is null");
        this.changed = requireNonNull(changed, "changed is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("klave-access-sweep").factory());
        scheduler.scheduleWithFixedDelay(this::pass, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One pass; a failure is logged and the next pass tries again. */
    void pass() {
        try {
            int recorded = sweep(BATCH);
            if (recorded > 0) {
                LOG.info("access requests: {} expired or ended access recorded", recorded);
            }
        } catch (RuntimeException e) {
            LOG.warn("access requests: the sweep failed, it runs again in {} s: {}", EVERY.toSeconds(),
                    e.toString());
        }
    }

    /**
     * One pass: pending requests that ran out are stored as expired, access that reached its end
     * (or lost its grant) is recorded as ended, and holders whose access ends within {@link
     * #ENDING_NOTICE} are told — each once across replicas (conditional updates), with its event.
     * Returns how many expiries and ends it recorded.
     */
    public int sweep(int limit) {
        Instant now = clock.instant();
        int recorded = 0;
        for (AccessRequest request : store.runOut(now, limit)) {
            boolean expired = transactions.inTransaction(() -> {
                if (!store.expire(request.id(), now)) {
                    return false;
                }
                events.record(EventType.ACCESS_REQUEST_EXPIRE, request, Optional.empty(), Map.of());
                return true;
            });
            recorded += expired ? 1 : 0;
        }
        for (AccessRequest request : store.reachedEnd(now, limit)) {
            boolean ended = transactions.inTransaction(() -> {
                if (!store.end(request.id(), now, Optional.empty())) {
                    return false;
                }
                // Still running by its minutes: its grant was revoked (or went with its holder's account).
                boolean revoked = request.grantExpiresAt().orElseThrow().isAfter(now);
                events.record(EventType.ACCESS_REQUEST_END, request, Optional.empty(), Map.of("early", revoked,
                        "revoked", revoked));
                return true;
            });
            if (ended) {
                recorded++;
                changed.accept(request.cluster());
            }
        }
        for (AccessRequest request : store.endingBy(now, now.plus(ENDING_NOTICE), limit)) {
            transactions.inTransaction(() -> {
                if (store.toldEnding(request.id(), now)) {
                    notices.ending(request, now);
                }
                return null;
            });
        }
        return recorded;
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
