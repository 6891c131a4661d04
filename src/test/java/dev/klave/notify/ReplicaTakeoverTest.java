package dev.klave.notify;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.klave.config.Cidr;
import dev.klave.crypto.Sealer;
import dev.klave.outbound.Resolver;
import dev.klave.store.JdbiDestinationStore;
import dev.klave.store.JdbiOutbox;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingDatabase;
import dev.klave.testing.TestingWebhookReceiver;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Two replicas on one database (issue 51, finding 19): one stops in the middle of sending — the
 * receiver had the request — and the other sends the same delivery again once the claim lapses,
 * {@link #TAKEN_OVER_AFTER} later (README: "at least once … deduplicate on Klave-Delivery"), with
 * the same {@code Klave-Delivery}; never before. Every attempt is logged as it starts and with its
 * outcome, naming the delivery and never the payload, the address or the secret.
 */
class ReplicaTakeoverTest {
    /** What README promises: another replica takes a stopped one's delivery over after 30 s. */
    private static final Duration TAKEN_OVER_AFTER = Duration.ofSeconds(30);
    private static final String SECRET = "kws_" + "s".repeat(43);

    private final TestingClock clock = new TestingClock(Instant.parse("2026-11-29T10:00:00Z"));
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private TestingDatabase database;
    private TestingWebhookReceiver receiver;
    private Outbox outbox;
    private DestinationStore destinations;
    private WebhookSender webhooks;

    @BeforeEach
    void start() {
        database = TestingDatabase.sqlite();
        receiver = TestingWebhookReceiver.start();
        outbox = new JdbiOutbox(database.database());
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        destinations = new JdbiDestinationStore(database.database(), new Sealer(key, new SecureRandom()));
        webhooks = new WebhookSender(receiver.clientTls(), List.of(Cidr.parse("127.0.0.1/32")), Resolver.system(),
                clock);
        logged.start();
        ((Logger) LoggerFactory.getLogger(Deliverer.class)).addAppender(logged);
    }

    @AfterEach
    void stop() {
        ((Logger) LoggerFactory.getLogger(Deliverer.class)).detachAppender(logged);
        receiver.close();
        database.close();
    }

    private Deliverer replica() {
        return new Deliverer(outbox, destinations, webhooks, Mailer.NONE, clock);
    }

    @Test
    void aReplicaStoppedMidSendLeavesTheDeliveryToAnotherAfterTheClaimWithTheSameDeliveryId() {
        Destination destination = new Destination(UUID.randomUUID().toString(), "siem", Destination.Format.JSON,
                URI.create(receiver.url("/hook")), "https://127.0.0.1/…", Optional.of(SECRET),
                Set.of(Kind.ACCESS_WAITING), clock.instant(), Optional.empty(), Destination.Delivery.NONE,
                Optional.empty());
        destinations.create(destination);
        String title = "eva pide «editar» sobre todo el cluster de prod-1";
        String payload = Notifier.payload(new Notification(Kind.ACCESS_WAITING, "waiting:r1", clock.instant(), title,
                List.of(Notification.Line.quoting("Motivo:", "revisar la cola")),
                URI.create("https://klave.example.com/acceso/solicitudes/r1"), Map.of("request", "r1")));
        outbox.add(new Outbox.Row("n_" + UUID.randomUUID().toString().replace("-", "").substring(0, 22),
                Outbox.Channel.WEBHOOK, Optional.of(destination.id()), destination.id(), Kind.ACCESS_WAITING,
                "waiting:r1", payload, clock.instant(), 0, clock.instant(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty()));
        receiver.answerAt("/hook", TestingWebhookReceiver.HANG);

        // Replica A sends; the receiver has the request and never answers; A stops before recording anything.
        Deliverer first = replica();
        first.pass();
        Eventually.until("the first attempt at the receiver", Duration.ofSeconds(5),
                () -> receiver.at("/hook").size() == 1);
        first.close();
        String delivery = receiver.at("/hook").get(0).header("Klave-Delivery");

        Deliverer second = replica();
        try {
            clock.advance(TAKEN_OVER_AFTER.minusSeconds(1));
            assertThat(second.pass()).as("still the stopped replica's").isZero();

            clock.advance(Duration.ofSeconds(1));
            assertThat(second.pass()).isEqualTo(1);
            Eventually.until("the delivery sent again and recorded", Duration.ofSeconds(5),
                    () -> outbox.ofDestination(destination.id(), 10).get(0).deliveredAt().isPresent());
        } finally {
            second.close();
        }

        List<TestingWebhookReceiver.Received> received = receiver.at("/hook");
        assertThat(received).hasSize(2);
        assertThat(received.get(1).status()).isEqualTo(200);
        assertThat(received.get(1).header("Klave-Delivery")).as("the same id: the receiver deduplicates")
                .isEqualTo(delivery);
        assertThat(received.get(1).body()).isEqualTo(received.get(0).body());

        List<String> lines = logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).as("each attempt's start and the outcome of the one recorded")
                .filteredOn(line -> line.contains(delivery)).anyMatch(line -> line.contains("attempt 1 started"))
                .anyMatch(line -> line.contains("cut short by Klave stopping"))
                .anyMatch(line -> line.contains("attempt 1 delivered (200)"));
        assertThat(lines.stream().filter(line -> line.contains(delivery) && line.contains("started")).count())
                .as("both attempts").isEqualTo(2);
        assertThat(lines).as("never the payload, the address or the secret").noneMatch(line -> line.contains("eva pide")
                || line.contains("revisar") || line.contains("/hook") || line.contains(SECRET)
                || line.contains("127.0.0.1"));
    }
}
