package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.config.DatabaseUrl;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
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
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * What a real Kubernetes API server showed (issue: "a revoked grant's watches keep streaming"): it
 * authorizes a watch once, when it starts, and never again — so a person's watch allowed by a
 * grant that is revoked, expires or narrows must be cut by Klave (spec 1 §3, §7: "revoke, expiry,
 * disable or grant change", within 10 s), even while the person holds other grants there. The
 * simulator stands in for the API server only as far as the real one goes: it never cuts a watch
 * itself, so every cut here is Klave's. A change to another subject's grants cuts nothing.
 */
class GrantChangeStreamsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Person(String cookie, String id, String token) {}

    private static String admin(TestingKlave klave, ClusterSimulator cluster) {
        for (String namespace : new String[] {"default", "team-a"}) {
            cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + namespace + "\n  labels:\n"
                    + "    pod-security.kubernetes.io/enforce: baseline\n");
        }
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        return admin;
    }

    /** A person with view on default and edit on team-a (the review's Bob), and a credential. */
    private static Person person(TestingKlave klave, ClusterSimulator cluster, String admin, String login)
            throws Exception {
        String cookie = TestingPeople.signUp(klave, login, false);
        String id = JSON.readTree(klave.http().get("/api/me", "Cookie", cookie).body()).get("id").asText();
        grant(klave, admin, id, "view", "default", Optional.empty());
        grant(klave, admin, id, "edit", "team-a", Optional.empty());
        Eventually.until("the bindings of " + login, Duration.ofSeconds(10),
                () -> cluster.objects().get("rolebindings", "team-a", "klave-edit").isPresent()
                        && cluster.objects().get("clusterroles", null, "klave-impersonation")
                                .map(role -> role.toString().contains("user:" + login)).orElse(false));
        String token = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie", cookie)
                .body()).get("token").asText();
        return new Person(cookie, id, token);
    }

    private static String grant(TestingKlave klave, String admin, String subject, String tier, String scope,
            Optional<Instant> expires) throws Exception {
        HttpResponse<String> created = klave.http().send("POST", "/api/grants", "{\"subject_id\":\"" + subject
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"" + tier + "\",\"scope\":\"" + scope + "\""
                + expires.map(at -> ",\"expires_at\":\"" + at + "\"").orElse("") + "}", "Cookie", admin);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body()).get("id").asText();
    }

    private static String grantIn(TestingKlave klave, String admin, Person person, String scope) throws Exception {
        for (JsonNode grant : JSON.readTree(klave.http().get("/api/grants?subject=" + person.id(), "Cookie", admin)
                .body())) {
            if (grant.get("scope").asText().equals(scope)) {
                return grant.get("id").asText();
            }
        }
        throw new AssertionError("no grant in " + scope);
    }

    /** A watch of team-a's ConfigMaps; the future completes when Klave ends it. */
    private static CompletableFuture<Long> watch(TestingKlave klave, String token) throws Exception {
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + klave.port()
                                + "/clusters/prod-1/api/v1/namespaces/team-a/configmaps?watch=true"))
                .timeout(Duration.ofSeconds(30))
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

    private static void awaitWatches(ClusterSimulator cluster, int count) {
        Eventually.until(count + " watch(es) open at the cluster", Duration.ofSeconds(10),
                () -> cluster.openWatches() == count);
    }

    private static void assertCutWithinTenSeconds(CompletableFuture<Long> watch, long changedAt) throws Exception {
        assertThat(Duration.ofNanos(watch.get(15, TimeUnit.SECONDS) - changedAt)).isLessThan(Duration.ofSeconds(10));
    }

    private static void assertStillOpen(CompletableFuture<Long> watch) throws Exception {
        try {
            watch.get(2500, TimeUnit.MILLISECONDS);
            throw new AssertionError("the watch was cut");
        } catch (TimeoutException stillOpen) {
            // What a change elsewhere must leave.
        }
    }

    @Test
    void revokingOneOfTwoGrantsCutsTheSubjectsWatchOnThatClusterButNotAnothersAndSaysSo() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String admin = admin(klave, cluster);
            Person bob = person(klave, cluster, admin, "bob");
            Person eve = person(klave, cluster, admin, "eve");
            CompletableFuture<Long> bobs = watch(klave, bob.token());
            CompletableFuture<Long> eves = watch(klave, eve.token());
            awaitWatches(cluster, 2);

            long revokedAt = System.nanoTime();
            assertThat(klave.http().send("DELETE", "/api/grants/" + grantIn(klave, admin, bob, "team-a"), null,
                    "Cookie", admin).statusCode()).isIn(200, 204);

            assertCutWithinTenSeconds(bobs, revokedAt);
            assertStillOpen(eves);
            JsonNode row = Eventually.value("bob's watch row", Duration.ofSeconds(5), () -> {
                for (JsonNode each : JSON.readTree(klave.http().get("/api/audit?verb=watch", "Cookie", bob.cookie())
                        .body()).get("events")) {
                    if (!each.get("error").isNull()) {
                        return Optional.of(each);
                    }
                }
                return Optional.empty();
            });
            assertThat(row.get("error").asText()).isEqualTo("stream cortado: la credencial ya no es válida");
            // Bob still holds view on default: a new request there is served, the watch is not back.
            assertThat(klave.http().get("/clusters/prod-1/api/v1/namespaces/default/configmaps", "Authorization",
                    "Bearer " + bob.token()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aGrantAddedOrAnotherPersonsGrantChangedCutsNothing() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings)) {
            String admin = admin(klave, cluster);
            Person bob = person(klave, cluster, admin, "bob");
            Person eve = person(klave, cluster, admin, "eve");
            CompletableFuture<Long> bobs = watch(klave, bob.token());
            awaitWatches(cluster, 1);

            grant(klave, admin, bob.id(), "admin", "team-a", Optional.empty());
            klave.http().send("DELETE", "/api/grants/" + grantIn(klave, admin, eve, "team-a"), null, "Cookie", admin);

            assertStillOpen(bobs);
        }
    }

    @Test
    void aGrantThatExpiresCutsTheWatchItAllowed() throws Exception {
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.start(clock, settings -> settings)) {
            String admin = admin(klave, cluster);
            Person bob = person(klave, cluster, admin, "bob");
            grant(klave, admin, bob.id(), "admin", "team-a", Optional.of(clock.instant().plus(Duration.ofMinutes(5))));
            CompletableFuture<Long> bobs = watch(klave, bob.token());
            awaitWatches(cluster, 1);

            clock.advance(Duration.ofMinutes(5).plusSeconds(1));
            long expiredAt = System.nanoTime();

            assertCutWithinTenSeconds(bobs, expiredAt);
        }
    }

    @Test
    void aGrantRevokedOnOneReplicaCutsTheWatchOnTheOther() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave first = TestingKlave.startOn(database, clock, settings -> settings);
                TestingKlave second = TestingKlave.startOn(database, clock, settings -> settings)) {
            String admin = admin(first, cluster);
            Person bob = person(first, cluster, admin, "bob");
            CompletableFuture<Long> bobs = watch(second, bob.token());
            awaitWatches(cluster, 1);

            long revokedAt = System.nanoTime();
            first.http().send("DELETE", "/api/grants/" + grantIn(first, admin, bob, "team-a"), null, "Cookie", admin);

            assertCutWithinTenSeconds(bobs, revokedAt);
        } finally {
            TestingPostgres.drop(database);
        }
    }
}
