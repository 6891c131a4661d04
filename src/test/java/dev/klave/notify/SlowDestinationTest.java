package dev.klave.notify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingWebhookReceiver;
import jakarta.mail.internet.MimeMessage;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A destination that never answers delays nobody but itself (issue 51, finding 4): beside it, a
 * healthy webhook and the decider's mailbox get each event within {@link #PROMPT} of its being
 * queued — far below the 10 s the hanging one holds each attempt — while the hanging one's first
 * attempt is still under way. And a failed attempt is tried again at the time README gives (finding
 * 18): 30 s after the attempt ended, by the next pass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlowDestinationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How soon a healthy destination hears of an event: a fifth of the hanging one's 10 s deadline. */
    private static final Duration PROMPT = Duration.ofSeconds(2);

    private final TestingClock clock = new TestingClock();
    private TestingWebhookReceiver receiver;
    private GreenMail mail;
    private TestingKlave klave;
    private TestingHttp http;
    private String root;
    private String eva;
    private int clusters;

    @BeforeAll
    void start() throws Exception {
        receiver = TestingWebhookReceiver.start();
        mail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        mail.start();
        klave = TestingKlave.startTrusting(clock, receiver.clientTls(), settings -> settings
                .with("SERVICE_WEBHOOK_ALLOW", "127.0.0.1/32")
                .with("SERVICE_SMTP_URL", "smtp://127.0.0.1:" + mail.getSmtp().getPort() + "?tls=none")
                .with("SERVICE_SMTP_FROM", "klave@example.com"));
        http = klave.http();
        root = TestingPeople.signUp(klave, "root", true);
        eva = TestingPeople.signUp(klave, "eva", false);
        String id = JSON.readTree(http.get("/api/me", "Cookie", root).body()).get("id").asText();
        assertThat(http.send("PATCH", "/api/subjects/" + id, "{\"email\":\"root@example.com\"}", "Cookie", root)
                .statusCode()).isEqualTo(200);
        assertThat(create("sano", "/fine").statusCode()).isEqualTo(201);
        assertThat(create("lento", "/busy").statusCode()).isEqualTo(201);
        // Once through every channel first: what the JVM does the first time (TLS, mail) is not measured.
        String warm = ask("calentar");
        Eventually.until("the first event everywhere", Duration.ofSeconds(15), () -> arrived("/fine", warm)
                && arrived("/busy", warm) && mailed(warm));
    }

    @AfterAll
    void stop() {
        klave.close();
        mail.stop();
        receiver.close();
    }

    private HttpResponse<String> create(String name, String path) {
        return http.send("POST", "/api/notifications/destinations", "{\"name\":\"" + name + "\",\"format\":\"json\","
                + "\"url\":\"" + receiver.url(path) + "\",\"kinds\":[\"access.waiting\"]}", "Cookie", root);
    }

    /** A new access request (on a cluster of its own): one event for every destination and the mailbox. */
    private String ask(String reason) throws Exception {
        String cluster = "c-" + ++clusters;
        http.send("POST", "/api/clusters", "{\"id\":\"" + cluster + "\",\"name\":\"" + cluster + "\"}", "Cookie", root);
        HttpResponse<String> asked = http.send("POST", "/api/access/requests", "{\"cluster_id\":\"" + cluster
                + "\",\"tier\":\"view\",\"scope\":\"*\",\"minutes\":30,\"reason\":\"" + reason + "\"}", "Cookie", eva);
        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(201);
        return JSON.readTree(asked.body()).get("id").asText();
    }

    private boolean arrived(String path, String id) {
        return receiver.at(path).stream().anyMatch(one -> one.body().contains(id) && one.status() == 200);
    }

    private TestingWebhookReceiver.Received first(String path, String id) {
        return receiver.at(path).stream().filter(one -> one.body().contains(id)).findFirst().orElseThrow();
    }

    private boolean mailed(String id) {
        return List.of(mail.getReceivedMessages()).stream().anyMatch(message -> body(message).contains(id));
    }

    private JsonNode destination(String name) throws Exception {
        return JSON.readTree(http.get("/api/notifications/destinations", "Cookie", root).body()).findParents("name")
                .stream().filter(one -> one.get("name").asText().equals(name)).findFirst().orElseThrow();
    }

    private JsonNode log(String name) throws Exception {
        return JSON.readTree(http.get("/api/notifications/destinations/" + destination(name).get("id").asText()
                + "/deliveries", "Cookie", root).body());
    }

    @Test
    void aDestinationThatNeverAnswersDelaysNeitherTheHealthyOneNorEmail() throws Exception {
        receiver.answerAt("/hang", Collections.nCopies(20, TestingWebhookReceiver.HANG)
                .toArray(Integer[]::new));
        assertThat(create("colgado", "/hang").statusCode()).isEqualTo(201);

        for (int event = 1; event <= 3; event++) {
            long queued = System.nanoTime();
            String id = ask("evento " + event);
            Eventually.until("event " + event + " at the healthy destination and in the mailbox", PROMPT,
                    () -> arrived("/fine", id) && mailed(id));
            assertThat(Duration.ofNanos(first("/fine", id).arrivedAt() - queued)).as("event %s, webhook", event)
                    .isLessThan(PROMPT);
            if (event == 1) {
                Eventually.until("the hanging destination holding the first event", PROMPT,
                        () -> receiver.at("/hang").stream().anyMatch(one -> one.body().contains(id)));
            }
        }

        JsonNode hanging = destination("colgado");
        assertThat(hanging.get("last_attempt_at").isNull()).as("its first attempt still under way").isTrue();
        assertThat(log("colgado")).hasSize(3).allMatch(row -> row.get("attempts").asInt() == 0
                && row.get("delivered_at").isNull());
        assertThat(receiver.at("/hang")).as("one attempt at a time on its own lane").hasSize(1);
    }

    @Test
    void aFailedAttemptIsTriedAgainThirtySecondsAfterItEndedByTheNextPass() throws Exception {
        // The receiver takes 4 s (of Klave's clock) to answer 503: the retry counts from the answer.
        receiver.answerAt("/busy", 503);
        receiver.beforeAnswering("/busy", () -> clock.advance(Duration.ofSeconds(4)));
        Instant asked = clock.instant();
        String id = ask("reintento");

        String failed = Eventually.value("the 503 recorded", Duration.ofSeconds(5), () -> log("lento").findParents("id")
                .stream().filter(one -> one.get("last_status").asInt() == 503).map(one -> one.get("id").asText())
                .findFirst());
        JsonNode row = row("lento", failed);
        assertThat(row.get("attempts").asInt()).isEqualTo(1);
        Instant ended = asked.plusSeconds(4);
        assertThat(Instant.parse(destination("lento").get("last_attempt_at").asText())).isEqualTo(ended);
        Instant next = Instant.parse(row.get("next_attempt_at").asText());
        assertThat(next).as("30 s after the attempt ended").isEqualTo(ended.plusSeconds(30));

        clock.advance(Duration.between(clock.instant(), next));
        long due = System.nanoTime();
        Eventually.until("the retry", Deliverer.EVERY.plusSeconds(1), () -> arrived("/busy", id));
        assertThat(TimeUnit.NANOSECONDS.toMillis(first200("/busy", id).arrivedAt() - due)).as("within one pass")
                .isLessThanOrEqualTo(Deliverer.EVERY.plusSeconds(1).toMillis());
        Eventually.until("the retry recorded", Duration.ofSeconds(5), () -> !row("lento", failed).get("delivered_at")
                .isNull());
        assertThat(row("lento", failed).get("attempts").asInt()).isEqualTo(2);
    }

    private JsonNode row(String destination, String id) throws Exception {
        return log(destination).findParents("id").stream().filter(one -> one.get("id").asText().equals(id))
                .findFirst().orElseThrow();
    }

    private TestingWebhookReceiver.Received first200(String path, String id) {
        return receiver.at(path).stream().filter(one -> one.body().contains(id) && one.status() == 200).findFirst()
                .orElseThrow();
    }

    private static String body(MimeMessage message) {
        try {
            return message.getContent().toString();
        } catch (Exception e) {
            return "";
        }
    }
}
