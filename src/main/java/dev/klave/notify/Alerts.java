package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import dev.klave.storage.Transactions;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Administrators' notices as notifications (issue 41 §2): every {@link #EVERY}, what needs an
 * administrator (a cluster that does not answer, a discovery or a forge sync failing, a destination
 * failing) is told to them and to the destinations that want notices — once a day per condition,
 * whichever replica sees it first (the outbox keeps one row per key and target).
 */
public final class Alerts implements AutoCloseable {
    static final Duration EVERY = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(Alerts.class);

    private final Transactions transactions;
    private final Notifier notifier;
    private final Supplier<List<Alert>> source;
    private final URI link;
    private final Clock clock;
    private ScheduledExecutorService scheduler;

    /** One condition: what it is (code and target make it one), and what to tell. */
    public record Alert(String code, String target, String title) {
        public Alert {
            requireNonNull(code, "code is null");
            requireNonNull(target, "target is null");
            requireNonNull(title, "title is null");
        }
    }

    /** @param link where administrators read notices in Klave */
    public Alerts(Transactions transactions, Notifier notifier, Supplier<List<Alert>> source, URI link, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.notifier = requireNonNull(notifier, "notifier is null");
        this.source = requireNonNull(source, "source is null");
        this.link = requireNonNull(link, "link is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public synchronized void start() {
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                    .name("klave-alerts").factory());
            scheduler.scheduleWithFixedDelay(() -> {
                try {
                    pass();
                } catch (RuntimeException e) {
                    LOG.warn("notifications: reading administrators' notices failed: {}", e.toString());
                }
            }, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** One pass: each condition standing now, told once today. Returns how many deliveries it queued. */
    public int pass() {
        Instant now = clock.instant();
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        int queued = 0;
        for (Alert alert : source.get()) {
            Notification notification = new Notification(Kind.NOTICE, "notice:" + alert.code() + ":"
                    + alert.target() + ":" + today, now, alert.title(), List.of(), link,
                    Map.of("code", alert.code(), "target", alert.target()));
            queued += transactions.inTransaction(() -> notifier.notify(notification, notifier.administrators()));
        }
        return queued;
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
