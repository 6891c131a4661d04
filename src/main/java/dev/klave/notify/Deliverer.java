package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.messages.Text;
import dev.klave.messages.Untrusted;
import dev.klave.outbound.OutboundFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the outbox in the background: every {@link #EVERY}, and at once when this replica queued
 * something. Rows are claimed for a while before sending, so two replicas never send one together;
 * a failed attempt is tried again after 30 s, 1, 2, 4… minutes (at most 30) and given up after
 * {@link #ATTEMPTS}; each outcome is kept on the row (the delivery log) and on its destination.
 */
public final class Deliverer implements AutoCloseable {
    static final Duration EVERY = Duration.ofSeconds(5);
    /** A claimed row is another replica's for this long: longer than a send can take. */
    static final Duration CLAIM = Duration.ofMinutes(2);
    static final int ATTEMPTS = 10;
    private static final int BATCH = 20;
    private static final Duration FIRST_RETRY = Duration.ofSeconds(30);
    private static final Duration LONGEST_RETRY = Duration.ofMinutes(30);
    private static final Logger LOG = LoggerFactory.getLogger(Deliverer.class);

    private final Outbox outbox;
    private final DestinationStore destinations;
    private final WebhookSender webhooks;
    private final Mailer mailer;
    private final Clock clock;
    private ScheduledExecutorService scheduler;

    public Deliverer(Outbox outbox, DestinationStore destinations, WebhookSender webhooks, Mailer mailer,
            Clock clock) {
        this.outbox = requireNonNull(outbox, "outbox is null");
        this.destinations = requireNonNull(destinations, "destinations is null");
        this.webhooks = requireNonNull(webhooks, "webhooks is null");
        this.mailer = requireNonNull(mailer, "mailer is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public synchronized void start() {
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                    .name("klave-notify").factory());
            scheduler.scheduleWithFixedDelay(this::passQuietly, EVERY.toMillis(), EVERY.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    /** Delivers soon, on the delivery thread (after a notification was queued here). */
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

    /** One pass: every due row, claimed then sent; returns how many were delivered. */
    public int pass() {
        Instant now = clock.instant();
        int delivered = 0;
        for (Outbox.Row row : outbox.claim(now, now.plus(CLAIM), BATCH)) {
            delivered += deliver(row) ? 1 : 0;
        }
        return delivered;
    }

    private boolean deliver(Outbox.Row row) {
        Instant now = clock.instant();
        Optional<Integer> status = Optional.empty();
        String error;
        Optional<Destination> destination = row.destinationId().flatMap(destinations::findById);
        try {
            if (row.channel() == Outbox.Channel.WEBHOOK) {
                if (destination.isEmpty()) {
                    outbox.failed(row.id(), now, Optional.empty(), Text.NOTIFY_DESTINATION_GONE.text(), Optional.empty());
                    return false;
                }
                int answered = webhooks.send(destination.get(), row.id(), row.payload());
                status = Optional.of(answered);
                if (answered >= 200 && answered < 300) {
                    outbox.delivered(row.id(), now, answered);
                    destinations.attempted(destination.get().id(), now, status, Optional.empty(), true);
                    return true;
                }
                error = "HTTP " + answered;
            } else {
                JsonNode payload = Formats.read(row.payload());
                mailer.send(row.target(), Formats.mailSubject(payload), Formats.mailText(payload));
                outbox.delivered(row.id(), now, 250);
                return true;
            }
        } catch (OutboundFailure e) {
            error = e.getMessage();
        } catch (Exception e) {
            error = Untrusted.failure(e);
        }
        int attempts = row.attempts() + 1;
        Optional<Instant> next = attempts >= ATTEMPTS ? Optional.empty() : Optional.of(now.plus(backoff(attempts)));
        outbox.failed(row.id(), now, status, error, next);
        Optional<Integer> answered = status;
        String why = error;
        destination.ifPresent(found -> destinations.attempted(found.id(), now, answered, Optional.of(why), false));
        LOG.info("notifications: {} to {} failed ({}), {}", row.kind().code(), row.channel() == Outbox.Channel.EMAIL
                ? "an e-mail address" : "destination " + row.destinationId().orElse("?"), Untrusted.text(error),
                next.map(at -> "tried again at " + at).orElse("given up after " + attempts + " attempts"));
        return false;
    }

    /** 30 s, 1 min, 2 min… doubling, at most 30 minutes. */
    static Duration backoff(int attempts) {
        Duration wait = FIRST_RETRY.multipliedBy(1L << Math.min(attempts - 1, 10));
        return wait.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : wait;
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
