package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@link #EVERY}, {@link AccessRequests#sweep}: a request unanswered in its 24 hours becomes
 * {@code expired}, and access that reached its end (or lost its grant) is recorded as ended, each
 * with its control event (issue 41: every transition an event). Every replica sweeps; the
 * conditional updates make each transition once.
 */
public final class AccessSweep implements AutoCloseable {
    /** How often; ends are also cut, independently, by the reconciler and the proxy's own checks. */
    public static final Duration EVERY = Duration.ofSeconds(30);
    /** At most this many of each transition per pass: a backlog is worked through pass by pass. */
    static final int BATCH = 200;
    private static final Logger LOG = LoggerFactory.getLogger(AccessSweep.class);

    private final AccessRequests requests;
    private ScheduledExecutorService scheduler;

    public AccessSweep(AccessRequests requests) {
        this.requests = requireNonNull(requests, "requests is null");
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
            int recorded = requests.sweep(BATCH);
            if (recorded > 0) {
                LOG.info("access requests: {} expired or ended access recorded", recorded);
            }
        } catch (RuntimeException e) {
            LOG.warn("access requests: the sweep failed, it runs again in {} s: {}", EVERY.toSeconds(),
                    e.toString());
        }
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
