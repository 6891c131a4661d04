package dev.klave.drills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY.md, "the clock jumps": every expiry is a point in time compared with the clock
 * Klave is given, so a jump forward past a credential's expiry ends it at once — requests whose
 * check was kept in memory and open watches alike — and a jump back does not stretch a credential
 * past the instant written in it.
 */
class ClockJumpDrillTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aJumpPastTheExpiryEndsTheCredentialEverywhereAtOnce() throws Exception {
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(clock, settings -> settings)) {
            Drills.People people = Drills.prepare(klave, cluster);
            // Checked once, so the next check of this token would come from memory.
            assertThat(klave.http().get(DrillLoad.PATH, "Authorization", "Bearer " + people.token()).statusCode())
                    .isEqualTo(200);
            HttpResponse<InputStream> watch = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + klave.port() + DrillLoad.PATH
                            + "?watch=true")).header("Authorization", "Bearer " + people.token()).build(),
                            HttpResponse.BodyHandlers.ofInputStream());
            String watchId = watch.headers().firstValue("Audit-ID").orElseThrow();
            CompletableFuture<Void> ended = CompletableFuture.runAsync(() -> {
                try (InputStream body = watch.body()) {
                    body.transferTo(java.io.OutputStream.nullOutputStream());
                } catch (java.io.IOException reset) {
                    // Cut.
                }
            });

            clock.advance(Duration.ofHours(13));

            HttpResponse<String> refused = klave.http().get(DrillLoad.PATH, "Authorization", "Bearer " + people.token());
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(JSON.readTree(refused.body()).get("message").asText()).isEqualTo("credencial caducada");
            ended.get(10, TimeUnit.SECONDS);
            // The administrator's 12 h session ended with the jump too.
            String admin = dev.klave.testing.TestingPeople.signIn(klave.http(), "root",
                    dev.klave.testing.TestingPeople.PASSWORD);
            Eventually.until("the watch's row says it was cut", Duration.ofSeconds(5), () -> {
                JsonNode row = row(klave, admin, watchId);
                return row.path("error").asText("").equals("stream cortado: la credencial ya no es válida");
            });
        }
    }

    @Test
    void aJumpBackDoesNotMoveTheExpiryWrittenInTheCredential() throws Exception {
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(clock, settings -> settings)) {
            Drills.People people = Drills.prepare(klave, cluster);

            clock.advance(Duration.ofHours(-6));
            assertThat(klave.http().get(DrillLoad.PATH, "Authorization", "Bearer " + people.token()).statusCode())
                    .isEqualTo(200);
            // Issued for 12 h at the old time: it ends 12 h after that, not 12 h after the jump.
            clock.advance(Duration.ofHours(18));

            HttpResponse<String> refused = klave.http().get(DrillLoad.PATH, "Authorization", "Bearer " + people.token());
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(JSON.readTree(refused.body()).get("message").asText()).isEqualTo("credencial caducada");
        }
    }

    private static JsonNode row(TestingKlave klave, String admin, String auditId) {
        try {
            return JSON.readTree(klave.http().get("/api/audit/" + auditId, "Cookie", admin).body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
