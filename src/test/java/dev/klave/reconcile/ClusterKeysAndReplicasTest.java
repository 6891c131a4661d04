package dev.klave.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.config.DatabaseUrl;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingPostgres;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A changed encryption key fails one cluster closed; replicas on one PostgreSQL take turns. */
class ClusterKeysAndReplicasTest {
    private static final String OTHER_KEY = "HyAdHBsaGRgXFhUUExIREA8ODQwLCgkIBwYFBAMCAQA=";

    @Test
    void changedEncryptionKeyMakesOnlyThatClusterAnswer503() throws Exception {
        Path shared = Files.createTempDirectory("klave-shared-").resolve("klave.db");
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            String admin;
            String token;
            try (TestingKlave before = TestingKlave.start(clock,
                    settings -> settings.with("SERVICE_DATABASE_URL", "sqlite:" + shared))) {
                admin = TestingPeople.signUp(before, "root", true);
                TestingClusters.bootstrap(before, admin, cluster, "prod-1");
                String rootId = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                        before.http().get("/api/me", "Cookie", admin).body()).get("id").asText();
                before.http().send("POST", "/api/grants", "{\"subject_id\":\"" + rootId
                        + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin);
                token = new com.fasterxml.jackson.databind.ObjectMapper().readTree(before.http().send("POST",
                        "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie", admin).body()).get("token").asText();
            }
            try (TestingKlave after = TestingKlave.start(clock, settings -> settings
                    .with("SERVICE_DATABASE_URL", "sqlite:" + shared)
                    .with("SERVICE_ENCRYPTION_KEY", OTHER_KEY))) {
                String cookie = TestingPeople.signIn(after.http(), "root", TestingPeople.PASSWORD);

                HttpResponse<String> namespaces = after.http().get("/api/clusters/prod-1/namespaces", "Cookie", cookie);
                HttpResponse<String> reconcile = after.http().send("POST", "/api/clusters/prod-1/reconcile", null,
                        "Cookie", cookie);

                assertThat(namespaces.statusCode()).isEqualTo(503);
                assertThat(namespaces.body()).isEqualTo("{\"error\":\"Klave no puede consultar su base de datos\"}");
                assertThat(reconcile.statusCode()).isEqualTo(503);
                assertThat(after.http().get("/api/clusters", "Cookie", cookie).statusCode()).isEqualTo(200);
                assertThat(after.http().send("POST", "/api/clusters", "{\"id\":\"prod-2\",\"name\":\"P2\"}",
                        "Cookie", cookie).statusCode()).isEqualTo(201);
                assertThat(after.http().get("/readyz").statusCode()).isEqualTo(200);
                HttpResponse<String> proxied = after.http().get("/clusters/prod-1/api/v1/namespaces",
                        "Authorization", "Bearer " + token);
                assertThat(proxied.statusCode()).isEqualTo(503);
                assertThat(proxied.body()).contains("\"message\":\"Klave no puede consultar su base de datos\"");
            }
        }
    }

    @Test
    void twoReplicasOnOnePostgresNeverReconcileOneClusterTogether() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave first = TestingKlave.startOn(database, clock, settings -> settings);
                TestingKlave second = TestingKlave.startOn(database, clock, settings -> settings)) {
            String admin = TestingPeople.signUp(first, "root", true);
            TestingClusters.bootstrap(first, admin, cluster, "prod-1");
            // A pass of the first replica holds the cluster, as if it were running right now.
            TestingClusters.holdReconcileLease(first, "prod-1", "first-replica/pass", clock, Duration.ofMinutes(2));

            HttpResponse<String> refused = second.http().send("POST", "/api/clusters/prod-1/reconcile", null,
                    "Cookie", admin);

            assertThat(refused.statusCode()).isEqualTo(409);
            assertThat(refused.body()).isEqualTo("{\"error\":\"ya hay una reconciliación de este cluster en curso\"}");
            clock.advance(Duration.ofMinutes(2));
            assertThat(second.http().send("POST", "/api/clusters/prod-1/reconcile", null, "Cookie", admin)
                    .statusCode()).isIn(200, 409);
        } finally {
            TestingPostgres.drop(database);
        }
    }
}
