package dev.klave.drills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.config.DatabaseUrl;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.KlaveProcess;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingPostgres;
import dev.klave.testing.TestingSettings;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY.md, "a replica killed with SIGKILL while streams are open": two replicas of the
 * packaged jar share one PostgreSQL; the one holding a watch dies without warning. The watch ends
 * at its client, the other replica goes on serving the same credential, and once the dead one is
 * started again nothing committed before the kill is missing — the watch's audit row included,
 * written before the watch was forwarded. Then "SIGTERM mid-stream": the replica that lived is
 * stopped as an orchestrator stops it, and its open watch is cut with its row completed.
 */
class ReplicaKillDrillIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofSeconds(60);
    private static final String CONFIGMAPS = "/clusters/prod-1/api/v1/namespaces/team-a/configmaps";

    @TempDir
    Path directory;

    private static String signUp(TestingHttp http, Path directory, Map<String, String> environment, String login,
            String... flags) {
        String[] arguments = new String[3 + flags.length];
        arguments[0] = "user";
        arguments[1] = "create";
        arguments[2] = login;
        System.arraycopy(flags, 0, arguments, 3, flags.length);
        KlaveProcess created = KlaveProcess.run(directory, environment, arguments);
        assertThat(created.exitValue()).as(String.join("\n", created.stderr())).isZero();
        return TestingPeople.cookieOf(http.send("POST", "/api/auth/link/complete", "{\"token\":\""
                + TestingPeople.tokenOf(created.stdout().getFirst()) + "\",\"password\":\"" + TestingPeople.PASSWORD
                + "\"}"));
    }

    private static HttpResponse<InputStream> watch(TestingHttp http, String token) throws Exception {
        HttpResponse<InputStream> watch = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + CONFIGMAPS
                        + "?watch=true")).header("Authorization", "Bearer " + token).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        assertThat(watch.statusCode()).isEqualTo(200);
        return watch;
    }

    /** Completes when the server ends the watch, cleanly or by a reset (how a killed peer ends it). */
    private static CompletableFuture<Void> ended(HttpResponse<InputStream> watch) {
        return CompletableFuture.runAsync(() -> {
            try (InputStream body = watch.body()) {
                body.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (java.io.IOException reset) {
                // Ended either way.
            }
        });
    }

    @Test
    void aReplicaKilledMidStreamLosesNothingCommittedAndTheOtherKeepsServing() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        Map<String, String> environment = Map.of("SERVICE_DATABASE_URL", TestingPostgres.urlOf(database),
                "SERVICE_ENCRYPTION_KEY", TestingSettings.KEY, "SERVICE_LISTEN", "127.0.0.1:0",
                "SERVICE_SHUTDOWN_DELAY", "0s");
        Path first = Files.createDirectories(directory.resolve("first"));
        Path second = Files.createDirectories(directory.resolve("second"));
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                KlaveProcess doomed = KlaveProcess.start(first, environment, "serve");
                KlaveProcess survivor = KlaveProcess.start(second, environment, "serve")) {
            TestingHttp doomedHttp = new TestingHttp(doomed.awaitListening(START));
            TestingHttp survivorHttp = new TestingHttp(survivor.awaitListening(START));
            cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n");
            String admin = signUp(doomedHttp, first, environment, "root", "--admin");
            TestingClusters.bootstrap(doomedHttp, admin, cluster, "prod-1");
            String ana = signUp(doomedHttp, first, environment, "ana");
            String anaId = JSON.readTree(doomedHttp.get("/api/me", "Cookie", ana).body()).get("id").asText();
            assertThat(doomedHttp.send("POST", "/api/grants", "{\"subject_id\":\"" + anaId
                    + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin).statusCode())
                    .isEqualTo(201);
            Eventually.until("the view binding is in the cluster", Duration.ofSeconds(20),
                    () -> cluster.objects().get("clusterrolebindings", null, "klave-view").isPresent());
            JsonNode issued = JSON.readTree(doomedHttp.send("POST", "/api/credentials", "{\"ttl\":\"12h\"}", "Cookie",
                    ana).body());
            String token = issued.get("token").asText();
            HttpResponse<String> before = doomedHttp.get(CONFIGMAPS, "Authorization", "Bearer " + token);
            assertThat(before.statusCode()).isEqualTo(200);

            HttpResponse<InputStream> watch = watch(doomedHttp, token);
            String watchAuditId = watch.headers().firstValue("Audit-ID").orElseThrow();
            CompletableFuture<Void> watchEnded = ended(watch);

            doomed.kill();

            watchEnded.get(20, TimeUnit.SECONDS);
            assertThat(survivorHttp.get(CONFIGMAPS, "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
            JsonNode watchRow = JSON.readTree(survivorHttp.get("/api/audit/" + watchAuditId, "Cookie", admin).body());
            assertThat(watchRow.get("verb").asText()).isEqualTo("watch");
            assertThat(watchRow.get("credential").asText()).isEqualTo(issued.get("id").asText());

            try (KlaveProcess restarted = KlaveProcess.start(first, environment, "serve")) {
                TestingHttp again = new TestingHttp(restarted.awaitListening(START));
                assertThat(again.get(CONFIGMAPS, "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
                assertThat(again.get("/api/audit/" + before.headers().firstValue("Audit-ID").orElseThrow(), "Cookie",
                        admin).body()).contains("\"status\":200");
                assertThat(again.get("/api/audit/" + watchAuditId, "Cookie", admin).statusCode()).isEqualTo(200);
                assertThat(again.get("/api/credentials", "Cookie", admin).body()).contains(issued.get("id").asText());

                // SIGTERM mid-stream, on the other replica: the watch is cut and its row says why.
                HttpResponse<InputStream> cutByStop = watch(survivorHttp, token);
                CompletableFuture<Void> cutByStopEnded = ended(cutByStop);
                survivor.terminate();
                cutByStopEnded.get(20, TimeUnit.SECONDS);
                assertThat(survivor.awaitExit(Duration.ofSeconds(30))).isEqualTo(143);
                assertThat(again.get("/api/audit/" + cutByStop.headers().firstValue("Audit-ID").orElseThrow(), "Cookie",
                        admin).body()).contains("\"error\":\"Klave reiniciando\"");
                restarted.terminate();
                restarted.awaitExit(Duration.ofSeconds(30));
            }
        } finally {
            TestingPostgres.drop(database);
        }
    }
}
