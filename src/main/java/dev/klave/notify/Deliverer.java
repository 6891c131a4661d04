package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.messages.Text;
import dev.klave.messages.Untrusted;
import dev.klave.outbound.OutboundFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the outbox in the background, each {@link Outbox.Lane} on its own: every webhook
 * destination, and e-mail, has a worker (a virtual thread, at most {@link #LANES} at once) that
 * sends its due rows one after another, so a destination that hangs delays only its own rows
 * (issue 51, finding 4). A pass every {@link #EVERY}, and at once when this replica queued
 * something, starts a worker for each lane with a row due that has none running.
 *
 * <p>A row is claimed just before it is sent, for {@link #CLAIM}: the longest an attempt can take
 * (each sender's own deadline) and a margin to record it, so two replicas never send one row
 * within one claim, and a replica that dies mid-send leaves the row to another after it. Delivery
 * is therefore at least once — the receiver may have had the attempt the dead replica never
 * recorded — with the same {@code Klave-Delivery} id on every attempt, to deduplicate on.
 *
 * <p>A failed attempt is tried again {@link #backoff} after it ended — 30 s, 1, 2, 4… minutes (at
 * most 30) — by the first pass after that, and given up after {@link #ATTEMPTS}. Every attempt is
 * logged when it starts and with its outcome (never the payload, an address or a secret), and each
 * outcome is kept on the row (the delivery log) and on its destination.
 */
public final class Deliverer implements AutoCloseable {
    static final Duration EVERY = Duration.ofSeconds(5);
    /** The longest one attempt takes: a webhook's deadline or a mail server's, whichever is longer. */
    static final Duration LONGEST_ATTEMPT = WebhookSender.DEADLINE.compareTo(SmtpMailer.DEADLINE) >= 0
            ? WebhookSender.DEADLINE : SmtpMailer.DEADLINE;
    /** A claimed row is its replica's for this long: the longest attempt and a margin to record it. */
    static final Duration CLAIM = LONGEST_ATTEMPT.plus(Duration.ofSeconds(10));
    static final int ATTEMPTS = 10;
    /** Workers at once: one per destination, and e-mail. */
    static final int LANES = Destinations.MAX_DESTINATIONS + 1;
    private static final Duration FIRST_RETRY = Duration.ofSeconds(30);
    private static final Duration LONGEST_RETRY = Duration.ofMinutes(30);
    private static final Logger LOG = LoggerFactory.getLogger(Deliverer.class);

    private final Outbox outbox;
    private final DestinationStore destinations;
    private final WebhookSender webhooks;
    private final Mailer mailer;
    private final Clock clock;
    /** The lanes with a worker running or lately run; guarded by {@code this}. */
    private final Map<Outbox.Lane, Lane> lanes = new HashMap<>();
    private ScheduledExecutorService scheduler;
    private volatile boolean closed;

    public Deliverer(Outbox outbox, DestinationStore destinations, WebhookSender webhooks, Mailer mailer,
            Clock clock) {
        this.outbox = requireNonNull(outbox, "outbox is null");
        this.destinations = requireNonNull(destinations, "destinations is null");
        this.webhooks = requireNonNull(webhooks, "webhooks is null");
        this.mailer = requireNonNull(mailer, "mailer is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public synchronized void start() {
        if (scheduler == null && !closed) {
            scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                    .name("klave-notify").factory());
            scheduler.scheduleWithFixedDelay(this::passQuietly, EVERY.toMillis(), EVERY.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    /** Delivers soon (after a notification was queued here). */
    public synchronized void wake() {
        if (scheduler != null && !scheduler.isShutdown()) {
            // A moment later: the queuing transaction commits first.
            scheduler.schedule(this::passQuietly, 200, TimeUnit.MILLISECONDS);
        }
    }

    private void passQuietly() {
        try {
            pass();
        } catch (RuntimeException e) {
            LOG.warn("notifications: a delivery pass failed, the next one tries again: {}", e.toString());
        }
    }

    /**
     * One pass: a worker started for every lane with a row due and none running (the workers send
     * in the background); returns how many it started.
     */
    public synchronized int pass() {
        if (closed) {
            return 0;
        }
        List<Outbox.Lane> due = outbox.due(clock.instant(), LANES);
        // A lane neither due nor running is forgotten (its destination may be gone): the map stays small.
        lanes.entrySet().removeIf(entry -> !due.contains(entry.getKey()) && entry.getValue().retireIfIdle());
        int started = 0;
        for (Outbox.Lane lane : due) {
            Lane worker = lanes.get(lane);
            if (worker == null && lanes.size() >= LANES) {
                continue; // as many workers as lanes can be: this one's turn comes at a later pass
            }
            if (worker == null) {
                worker = new Lane(lane);
                lanes.put(lane, worker);
            }
            started += worker.request() ? 1 : 0;
        }
        return started;
    }

    /** Claims the lane's next due row and attempts it; false when the lane has none left. */
    private boolean sendNext(Outbox.Lane lane) {
        Instant now = clock.instant();
        Optional<Outbox.Row> row = outbox.claim(lane, now, now.plus(CLAIM));
        row.ifPresent(this::deliver);
        return row.isPresent();
    }

    private void deliver(Outbox.Row row) {
        int attempt = row.attempts() + 1;
        LOG.info("notifications: delivery {} ({}) to {}: attempt {} started", row.id(), row.kind().code(), row.lane(),
                attempt);
        long started = System.nanoTime();
        Attempt outcome = attempt(row);
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        if (closed && !outcome.delivered()) {
            // Klave stops: whether the receiver had it is unknown; the claim lapses and it is sent again.
            LOG.info("notifications: delivery {} to {}: attempt {} cut short by Klave stopping after {} ms ({}), "
                    + "sent again once its claim lapses", row.id(), row.lane(), attempt, took, Untrusted.text(outcome.error()));
            return;
        }
        // The back-off counts from the attempt's end: a slow failure is not tried again sooner.
        Instant end = clock.instant();
        if (outcome.delivered()) {
            outbox.delivered(row.id(), end, outcome.status().orElseThrow());
            row.destinationId().ifPresent(id -> destinations.attempted(id, end, outcome.status(), Optional.empty(),
                    true));
            LOG.info("notifications: delivery {} to {}: attempt {} delivered ({}) in {} ms", row.id(), row.lane(),
                    attempt, outcome.status().orElseThrow(), took);
            return;
        }
        Optional<Instant> next = attempt >= ATTEMPTS || outcome.last() ? Optional.empty()
                : Optional.of(end.plus(backoff(attempt)));
        outbox.failed(row.id(), end, outcome.status(), outcome.error(), next);
        row.destinationId().ifPresent(id -> destinations.attempted(id, end, outcome.status(),
                Optional.of(outcome.error()), false));
        LOG.info("notifications: delivery {} to {}: attempt {} failed in {} ms ({}), {}", row.id(), row.lane(),
                attempt, took, Untrusted.text(outcome.error()),
                next.map(at -> "tried again at " + at).orElse("given up after " + attempt + " attempts"));
    }

    /** One attempt's outcome; nothing is recorded here. */
    private Attempt attempt(Outbox.Row row) {
        try {
            if (row.channel() == Outbox.Channel.WEBHOOK) {
                Optional<Destination> destination = row.destinationId().flatMap(destinations::findById);
                if (destination.isEmpty()) {
                    return new Attempt(false, Optional.empty(), Text.NOTIFY_DESTINATION_GONE.text(), true);
                }
                int answered = webhooks.send(destination.get(), row.id(), row.payload());
                boolean delivered = answered >= 200 && answered < 300;
                return new Attempt(delivered, Optional.of(answered), delivered ? "" : "HTTP " + answered, false);
            }
            JsonNode payload = Formats.read(row.payload());
            mailer.send(row.target(), Formats.mailSubject(payload), Formats.mailText(payload));
            return new Attempt(true, Optional.of(250), "", false);
        } catch (OutboundFailure e) {
            return new Attempt(false, Optional.empty(), e.getMessage(), false);
        } catch (Exception e) {
            return new Attempt(false, Optional.empty(), Untrusted.failure(e), false);
        }
    }

    /**
     * @param status the answer's status (250 for an e-mail accepted)
     * @param last whether no attempt can ever succeed (the destination is gone)
     */
    private record Attempt(boolean delivered, Optional<Integer> status, String error, boolean last) {}

    /** 30 s, 1 min, 2 min… doubling, at most 30 minutes. */
    static Duration backoff(int attempts) {
        Duration wait = FIRST_RETRY.multipliedBy(1L << Math.min(attempts - 1, 10));
        return wait.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : wait;
    }

    /** Stops the passes and cuts the attempts under way short; their rows are sent again after their claim. */
    @Override
    public void close() {
        List<Lane> running;
        synchronized (this) {
            closed = true;
            if (scheduler != null) {
                scheduler.shutdownNow();
            }
            running = List.copyOf(lanes.values());
        }
        running.forEach(Lane::interrupt);
    }

    /**
     * One lane's worker: a virtual thread sending the lane's due rows one after another while any
     * is due. A pass asking while it runs makes it look again before it ends, so no row waits for
     * the next pass because it was queued as the worker finished.
     */
    private final class Lane {
        private final Outbox.Lane lane;
        private boolean running;
        private boolean requested;
        private boolean retired;
        private Thread worker;

        Lane(Outbox.Lane lane) {
            this.lane = lane;
        }

        /** Asks the lane to deliver; true when this started its worker. */
        synchronized boolean request() {
            if (retired || closed) {
                return false;
            }
            requested = true;
            if (running) {
                return false;
            }
            running = true;
            worker = Thread.ofVirtual().name("klave-notify-lane").start(this::work);
            return true;
        }

        /** Forgets the lane when no worker runs; true when it did. */
        synchronized boolean retireIfIdle() {
            if (running) {
                return false;
            }
            retired = true;
            return true;
        }

        synchronized void interrupt() {
            if (worker != null) {
                worker.interrupt();
            }
        }

        private void work() {
            while (true) {
                synchronized (this) {
                    if (!requested || closed) {
                        running = false;
                        worker = null;
                        return;
                    }
                    requested = false;
                }
                try {
                    while (!closed && sendNext(lane)) {
                        // the next due row of this lane
                    }
                } catch (RuntimeException e) {
                    LOG.warn("notifications: delivering to {} failed, the next pass tries again: {}", lane,
                            Untrusted.text(e.toString()));
                }
            }
        }
    }
}
