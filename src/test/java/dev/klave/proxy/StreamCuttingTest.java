package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.cluster.ClusterId;
import dev.klave.gateway.Bearers;
import dev.klave.gateway.CredentialChecks;
import dev.klave.gateway.OpenCalls;
import dev.klave.config.DatabaseUrl;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.ManualTicker;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingPostgres;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Open watches end when their credential stops being valid (spec 1 §3: within 10 s), on every
 * replica, with the audit row saying why; and a failing audit store stops requests (503).
 */
class StreamCuttingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Starts a watch and returns a future that completes when the server ends it. */
    private static CompletableFuture<Long> watch(TestingKlave klave, String token) throws Exception {
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + klave.port()
                                + "/clusters/prod-1/api/v1/namespaces/team-a/configmaps?watch=true"))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        return CompletableFuture.supplyAsync(() -> {
            try (InputStream body = response.body()) {
                body.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (java.io.IOException cut) {
                // A reset is as good an ending as a clean close.
            }
            return System.nanoTime();
        });
    }

    private static String[] prepare(TestingKlave klave, ClusterSimulator cluster) throws Exception {
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n");
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        String ana = TestingPeople.signUp(klave, "ana", false);
        String anaId = JSON.readTree(klave.http().get("/api/me", "Cookie", ana).body()).get("id").asText();
        klave.http().send("POST", "/api/grants", "{\"subject_id\":\"" + anaId + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin);
        Eventually.until("the view binding in the cluster", Duration.ofSeconds(5),
                () -> cluster.objects().get("clusterrolebindings", null, "klave-view").isPresent());
        JsonNode issued = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie", ana)
                .body());
        return new String[] {ana, issued.get("id").asText(), issued.get("token").asText()};
    }

    @Test
    void revokingACredentialEndsItsWatchWithinTenSecondsAndSaysSoInTheAudit() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String[] ana = prepare(klave, cluster);
            CompletableFuture<Long> ended = watch(klave, ana[2]);
            awaitOpenWatches(cluster, 1);
            assertThat(ended).isNotDone();

            long revokedAt = System.nanoTime();
            klave.http().send("POST", "/api/credentials/" + ana[1] + "/revoke", null, "Cookie", ana[0]);

            long endedAt = ended.get(15, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(endedAt - revokedAt)).isLessThan(Duration.ofSeconds(10));
            JsonNode row = awaitWatchRow(klave, ana[0]);
            assertThat(row.get("error").asText()).isEqualTo("stream cortado: la credencial ya no es válida");
        }
    }

    @Test
    void aChangeThroughThisReplicasApiIsCheckedAtOnceNotAtTheNextTick() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String[] ana = prepare(klave, cluster);
            String kept = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie",
                    ana[0]).body()).get("token").asText();
            CredentialChecks checks = klave.hooks().gateway().checks();
            ClusterId prod = new ClusterId("prod-1");
            // A guard whose ticks never come: whatever cuts here is the recheck.
            ManualTicker ticker = new ManualTicker();
            try (OpenCalls guard = new OpenCalls(checks, Clock.systemUTC(), ticker, Duration.ofSeconds(1))) {
                guard.start();
                CompletableFuture<String> revokedCut = new CompletableFuture<>();
                CompletableFuture<String> keptCut = new CompletableFuture<>();
                dev.klave.gateway.BearerResolver bearers = klave.hooks().bearers();
                guard.open("revoked", checks.admit(dev.klave.gateway.Resolved.fresh(bearers.resolve(Bearers.token(
                        Optional.of("Bearer " + ana[2])), dev.klave.gateway.BearerResolver.Edge.PROXY)), prod), prod,
                        reason -> revokedCut.complete(reason.text()));
                guard.open("kept", checks.admit(dev.klave.gateway.Resolved.fresh(bearers.resolve(Bearers.token(
                        Optional.of("Bearer " + kept)), dev.klave.gateway.BearerResolver.Edge.PROXY)), prod), prod,
                        reason -> keptCut.complete(reason.text()));

                klave.http().send("POST", "/api/credentials/" + ana[1] + "/revoke", null, "Cookie", ana[0]);
                guard.recheckNow();

                assertThat(ticker.runQueued()).as("one recheck queued").isEqualTo(1);
                assertThat(revokedCut.getNow("not cut")).isEqualTo("stream cortado: la credencial ya no es válida");
                // The same pass checked the other stream, whose credential still holds.
                assertThat(keptCut).isNotDone();
            }
        }
    }

    @Test
    void disablingTheOwnerOrEndingTheGrantEndsTheWatchToo() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String[] ana = prepare(klave, cluster);
            String admin = TestingPeople.signIn(klave.http(), "root", TestingPeople.PASSWORD);
            String anaId = JSON.readTree(klave.http().get("/api/me", "Cookie", ana[0]).body()).get("id").asText();
            String grant = JSON.readTree(klave.http().get("/api/grants?subject=" + anaId, "Cookie", admin).body())
                    .get(0).get("id").asText();
            CompletableFuture<Long> ended = watch(klave, ana[2]);
            awaitOpenWatches(cluster, 1);

            long revokedAt = System.nanoTime();
            klave.http().send("DELETE", "/api/grants/" + grant, null, "Cookie", admin);

            assertThat(Duration.ofNanos(ended.get(15, TimeUnit.SECONDS) - revokedAt)).isLessThan(Duration.ofSeconds(10));
            HttpResponse<String> after = klave.http().get("/clusters/prod-1/api/v1/namespaces", "Authorization",
                    "Bearer " + ana[2]);
            assertThat(JSON.readTree(after.body()).get("message").asText())
                    .isEqualTo("user:ana no tiene permisos activos en el cluster prod-1");
        }
    }

    @Test
    void discoveryAndRefusedRowsAreListedOnlyWhenAskedFor() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String[] ana = prepare(klave, cluster);
            klave.http().get("/clusters/prod-1/api", "Authorization", "Bearer " + ana[2]);
            klave.http().get("/clusters/prod-1/api/v1/namespaces/team-a/configmaps", "Authorization", "Bearer " + ana[2]);

            JsonNode all = Eventually.value("both requests' rows listed with discovery", Duration.ofSeconds(5), () -> {
                JsonNode listed = JSON.readTree(klave.http().get("/api/audit?include_discovery=true", "Cookie", ana[0])
                        .body());
                return Optional.of(listed).filter(rows -> rows.get("events").findValuesAsText("path")
                        .containsAll(java.util.List.of("/api", "/api/v1/namespaces/team-a/configmaps")));
            });
            JsonNode plain = JSON.readTree(klave.http().get("/api/audit", "Cookie", ana[0]).body());

            assertThat(plain.get("events").findValuesAsText("path")).doesNotContain("/api");
            assertThat(all.get("events").findValuesAsText("path")).contains("/api", "/api/v1/namespaces/team-a/configmaps");
            assertThat(plain.get("page_size").asInt()).isEqualTo(50);
        }
    }

    @Test
    void revocationOnOneReplicaEndsTheWatchOnTheOther() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave first = TestingKlave.startOn(database, clock, settings -> settings);
                TestingKlave second = TestingKlave.startOn(database, clock, settings -> settings)) {
            String[] ana = prepare(first, cluster);
            CompletableFuture<Long> ended = watch(second, ana[2]);
            awaitOpenWatches(cluster, 1);

            long revokedAt = System.nanoTime();
            first.http().send("POST", "/api/credentials/" + ana[1] + "/revoke", null, "Cookie", ana[0]);

            long endedAt = ended.get(15, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(endedAt - revokedAt)).isLessThan(Duration.ofSeconds(10));
        } finally {
            TestingPostgres.drop(database);
        }
    }

    @Test
    void aCheckRememberedOnOneReplicaDoesNotOutliveARevocationOnTheOther() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave first = TestingKlave.startOn(database, clock, settings -> settings);
                TestingKlave second = TestingKlave.startOn(database, clock, settings -> settings)) {
            String[] ana = prepare(first, cluster);
            String path = "/clusters/prod-1/api/v1/namespaces/team-a/configmaps";
            assertThat(second.http().get(path, "Authorization", "Bearer " + ana[2]).statusCode()).isEqualTo(200);
            assertThat(second.http().get(path, "Authorization", "Bearer " + ana[2]).statusCode()).isEqualTo(200);

            first.http().send("POST", "/api/credentials/" + ana[1] + "/revoke", null, "Cookie", ana[0]);

            cluster.clearRequests();
            HttpResponse<String> next = second.http().get(path, "Authorization", "Bearer " + ana[2]);
            assertThat(next.statusCode()).isEqualTo(401);
            assertThat(JSON.readTree(next.body()).get("message").asText()).isEqualTo("credencial revocada");
            assertThat(cluster.requests()).noneMatch(request -> request.path().contains("configmaps"));
            // The second replica wrote the row before it learnt of the revocation: the row ends as
            // the refusal, hidden from listings like every authentication failure (spec 1 §2).
            String auditId = next.headers().firstValue("Audit-ID").orElseThrow();
            JsonNode row = awaitCompletedRow(second, ana[0], auditId);
            assertThat(row.get("status").asInt()).isEqualTo(401);
            assertThat(row.get("error").asText()).isEqualTo("credencial revocada");
            assertThat(row.get("resource").isNull()).isTrue();
            assertThat(JSON.readTree(second.http().get("/api/audit", "Cookie", ana[0]).body()).get("events")
                    .findValuesAsText("id")).doesNotContain(auditId);
            assertThat(JSON.readTree(second.http().get("/api/audit?include_discovery=true", "Cookie", ana[0]).body())
                    .get("events").findValuesAsText("id")).contains(auditId);
        } finally {
            TestingPostgres.drop(database);
        }
    }

    @Test
    void moreOpenWatchesThanPooledConnectionsDoNotHoldUpOtherRequests() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String[] ana = prepare(klave, cluster);
            java.util.List<CompletableFuture<Long>> watches = new java.util.ArrayList<>();
            for (int i = 0; i < 70; i++) {
                watches.add(watch(klave, ana[2]));
            }

            HttpResponse<String> answer = klave.http().get("/clusters/prod-1/api/v1/namespaces/team-a/configmaps",
                    "Authorization", "Bearer " + ana[2]);

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(watches).noneMatch(CompletableFuture::isDone);
        }
    }

    @Test
    void aClientClosingItsWatchEndsTheWatchAtTheCluster() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String[] ana = prepare(klave, cluster);
            try (java.net.Socket client = new java.net.Socket("127.0.0.1", klave.port())) {
                client.getOutputStream().write(("GET /clusters/prod-1/api/v1/namespaces/team-a/configmaps?watch=true "
                        + "HTTP/1.1\r\nHost: klave\r\nAuthorization: Bearer " + ana[2] + "\r\n\r\n")
                        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                assertThat(client.getInputStream().read()).isNotNegative();
                awaitOpenWatches(cluster, 1);
            }

            // Without this, a silent watch held Klave's connection to the cluster (and the
            // cluster's) until the cluster ended it.
            awaitOpenWatches(cluster, 0);
        }
    }

    private static void awaitOpenWatches(ClusterSimulator cluster, int count) {
        Eventually.until(count + " watch(es) open at the cluster", Duration.ofSeconds(10),
                () -> cluster.openWatches() == count);
    }

    @Test
    void auditStoreThatRejectsWritesStopsTheRequestBeforeTheCluster() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String[] ana = prepare(klave, cluster);
            klave.klave().database().withHandle(handle -> handle.execute("CREATE TRIGGER audit_rejects BEFORE "
                    + "INSERT ON audit BEGIN SELECT RAISE(ABORT, 'audit disk full'); END"));
            cluster.clearRequests();

            HttpResponse<String> refused = klave.http().get("/clusters/prod-1/api/v1/namespaces/team-a/configmaps",
                    "Authorization", "Bearer " + ana[2]);

            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(JSON.readTree(refused.body()).get("message").asText())
                    .isEqualTo("Klave no puede registrar la petición");
            assertThat(cluster.requests()).noneMatch(request -> request.path().contains("configmaps"));
        }
    }

    @Test
    void aRememberedCredentialIsStillRefusedWhenItsAuditRowCannotBeWritten() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String[] ana = prepare(klave, cluster);
            String path = "/clusters/prod-1/api/v1/namespaces/team-a/configmaps";
            assertThat(klave.http().get(path, "Authorization", "Bearer " + ana[2]).statusCode()).isEqualTo(200);
            klave.klave().database().withHandle(handle -> handle.execute("CREATE TRIGGER audit_rejects BEFORE "
                    + "INSERT ON audit BEGIN SELECT RAISE(ABORT, 'audit disk full'); END"));
            cluster.clearRequests();

            HttpResponse<String> refused = klave.http().get(path, "Authorization", "Bearer " + ana[2]);

            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(JSON.readTree(refused.body()).get("message").asText())
                    .isEqualTo("Klave no puede registrar la petición");
            assertThat(cluster.requests()).noneMatch(request -> request.path().contains("configmaps"));
        }
    }

    @Test
    void aDatabaseThatIsGoneAnswersTheSpecs503() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.startOn(database, new TestingClock(), settings -> settings)) {
            String[] ana = prepare(klave, cluster);
            String unused = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie",
                    ana[0]).body()).get("token").asText();
            String path = "/clusters/prod-1/api/v1/namespaces/team-a/configmaps";
            assertThat(klave.http().get(path, "Authorization", "Bearer " + ana[2]).statusCode()).isEqualTo(200);

            TestingPostgres.drop(database);

            HttpResponse<String> unchecked = klave.http().get(path, "Authorization", "Bearer " + unused);
            assertThat(unchecked.statusCode()).isEqualTo(503);
            assertThat(JSON.readTree(unchecked.body()).get("message").asText())
                    .isEqualTo("Klave no puede consultar su base de datos");
            // A credential checked before still needs its row written, which cannot be either.
            HttpResponse<String> remembered = klave.http().get(path, "Authorization", "Bearer " + ana[2]);
            assertThat(remembered.statusCode()).isEqualTo(503);
            assertThat(JSON.readTree(remembered.body()).get("message").asText())
                    .isEqualTo("Klave no puede registrar la petición");
        } finally {
            TestingPostgres.drop(database);
        }
    }

    private static JsonNode awaitCompletedRow(TestingKlave klave, String cookie, String auditId) {
        return Eventually.value("audit row " + auditId + " completed", Duration.ofSeconds(5), () -> {
            JsonNode row = JSON.readTree(klave.http().get("/api/audit/" + auditId, "Cookie", cookie).body());
            return Optional.of(row).filter(completed -> completed.has("status") && !completed.get("status").isNull());
        });
    }

    private static JsonNode awaitWatchRow(TestingKlave klave, String cookie) {
        return Eventually.value("the watch's audit row completed with its error", Duration.ofSeconds(5), () -> {
            for (JsonNode row : JSON.readTree(klave.http().get("/api/audit?verb=watch", "Cookie", cookie).body())
                    .get("events")) {
                if (!row.get("error").isNull()) {
                    return Optional.of(row);
                }
            }
            return Optional.empty();
        });
    }
}
