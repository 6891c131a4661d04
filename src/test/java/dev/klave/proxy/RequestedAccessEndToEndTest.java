package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.config.DatabaseUrl;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.Kubectl;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingPostgres;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Access a person asked for (issue 41), end to end with the cluster simulator and the real kubectl:
 * asked from the terminal with the person's own credential, approved, in force at once — kubectl
 * reads team-a — and cut when it ends, early by its requester or at its end, an open watch
 * included, within the usual 10 s. On PostgreSQL, a decision taken on one replica is in force on
 * the other at once.
 */
class RequestedAccessEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Person(String cookie, String token, String kubeconfig) {}

    private static String admin(TestingKlave klave, ClusterSimulator cluster) {
        for (String namespace : new String[] {"default", "team-a"}) {
            cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + namespace + "\n  labels:\n"
                    + "    pod-security.kubernetes.io/enforce: baseline\n");
        }
        cluster.objects().put("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  namespace: team-a\n"
                + "spec:\n  containers:\n  - name: web\n    image: nginx\n");
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        return admin;
    }

    /** Eva, who may only view default, and her credential with its kubeconfig. */
    private static Person eva(TestingKlave klave, String admin) throws Exception {
        String cookie = TestingPeople.signUp(klave, "eva", false);
        String id = JSON.readTree(klave.http().get("/api/me", "Cookie", cookie).body()).get("id").asText();
        klave.http().send("POST", "/api/grants", "{\"subject_id\":\"" + id + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"default\"}", "Cookie", admin);
        JsonNode issued = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"12h\"}", "Cookie",
                cookie).body());
        return new Person(cookie, issued.get("token").asText(), issued.get("kubeconfig").asText());
    }

    /** Asked from a terminal: the person's own klt_ credential, no session. */
    private static String askFromTerminal(TestingKlave klave, Person eva, int minutes) throws Exception {
        HttpResponse<String> asked = klave.http().send("POST", "/api/access/requests", "{\"cluster_id\":\"prod-1\","
                + "\"tier\":\"edit\",\"scope\":\"team-a\",\"minutes\":" + minutes + ",\"reason\":\"INC-7: web-0 "
                + "no arranca\"}", "Authorization", "Bearer " + eva.token());
        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(201);
        return JSON.readTree(asked.body()).get("id").asText();
    }

    private static void approve(TestingKlave klave, String admin, String id) {
        HttpResponse<String> approved = klave.http().send("POST", "/api/access/requests/" + id + "/approve", null,
                "Cookie", admin);
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
    }

    private static boolean reads(Kubectl kubectl) {
        Kubectl.Result pods = kubectl.run("get", "pods", "-n", "team-a");
        return pods.exitCode() == 0 && pods.stdout().contains("web-0");
    }

    /** A kubectl watch of team-a's ConfigMaps, running until Klave cuts it. */
    private static Process watch(Kubectl kubectl) throws Exception {
        return kubectl.start(java.util.Map.of(), "get", "configmaps", "-n", "team-a", "--watch");
    }

    @Test
    void accessAskedFromTheTerminalWorksOnceApprovedAndStopsWhenItsRequesterEndsIt() throws Exception {
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.startHttps(clock, settings -> settings)) {
            String admin = admin(klave, cluster);
            Person eva = eva(klave, admin);
            try (Kubectl kubectl = new Kubectl(eva.kubeconfig())) {
                assertThat(reads(kubectl)).as("nothing in team-a yet").isFalse();

                String id = askFromTerminal(klave, eva, 30);
                approve(klave, admin, id);
                Eventually.until("kubectl reads team-a", Duration.ofSeconds(10), () -> reads(kubectl));
                // The audit row of a request made under the requested access links to the request.
                String rowId = Eventually.value("eva's read of team-a audited", Duration.ofSeconds(5), () -> {
                    for (JsonNode row : JSON.readTree(klave.http().get("/api/audit?namespace=team-a&verb=list",
                            "Cookie", admin).body()).get("events")) {
                        if (row.get("status").asInt() == 200) {
                            return java.util.Optional.of(row.get("id").asText());
                        }
                    }
                    return java.util.Optional.empty();
                });
                assertThat(JSON.readTree(klave.http().get("/api/audit/" + rowId, "Cookie", admin).body())
                        .get("access_request").asText()).isEqualTo(id);
                Process watching = watch(kubectl);
                Eventually.until("the watch open", Duration.ofSeconds(10), () -> cluster.openWatches() == 1);

                long endedAt = System.nanoTime();
                HttpResponse<String> ended = klave.http().send("POST", "/api/access/requests/" + id + "/end", null,
                        "Authorization", "Bearer " + eva.token());
                assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);

                assertThat(watching.waitFor(15, TimeUnit.SECONDS)).as("the watch cut").isTrue();
                assertThat(Duration.ofNanos(System.nanoTime() - endedAt)).isLessThan(Duration.ofSeconds(11));
                Eventually.until("kubectl refused in team-a", Duration.ofSeconds(10), () -> !reads(kubectl));
                Kubectl.Result stillDefault = kubectl.run("get", "configmaps", "-n", "default");
                assertThat(stillDefault.exitCode()).as("her standing access stays: " + stillDefault.output()).isZero();
            }
        }
    }

    @Test
    void accessEndsByItselfAtItsEndAndItsWatchIsCut() throws Exception {
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave klave = TestingKlave.startHttps(clock, settings -> settings)) {
            String admin = admin(klave, cluster);
            Person eva = eva(klave, admin);
            String id = askFromTerminal(klave, eva, 15);
            approve(klave, admin, id);
            try (Kubectl kubectl = new Kubectl(eva.kubeconfig())) {
                Eventually.until("kubectl reads team-a", Duration.ofSeconds(10), () -> reads(kubectl));
                Process watching = watch(kubectl);
                Eventually.until("the watch open", Duration.ofSeconds(10), () -> cluster.openWatches() == 1);

                clock.advance(Duration.ofMinutes(15).plusSeconds(1));
                long endedAt = System.nanoTime();

                assertThat(watching.waitFor(15, TimeUnit.SECONDS)).as("the watch cut").isTrue();
                assertThat(Duration.ofNanos(System.nanoTime() - endedAt)).isLessThan(Duration.ofSeconds(11));
                assertThat(reads(kubectl)).isFalse();
                klave.hooks().sweepAccessRequests(100);
                JsonNode request = JSON.readTree(klave.http().get("/api/access/requests/" + id, "Authorization",
                        "Bearer " + eva.token()).body()).get("request");
                assertThat(request.get("access").asText()).isEqualTo("ended");
            }
        }
    }

    @Test
    void aDecisionOnOneReplicaIsInForceOnTheOtherAtOnce() throws Exception {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        TestingClock clock = new TestingClock();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                TestingKlave first = TestingKlave.startOn(database, clock, settings -> settings);
                TestingKlave second = TestingKlave.startOn(database, clock, settings -> settings)) {
            String admin = admin(first, cluster);
            Person eva = eva(first, admin);
            String id = askFromTerminal(second, eva, 30);
            approve(first, admin, id);

            JsonNode grants = JSON.readTree(second.http().get("/api/grants?subject=eva", "Cookie", admin).body());
            assertThat(grants.findValuesAsText("tier")).as("the grant, read on the other replica").contains("edit");
            Eventually.until("team-a through the other replica", Duration.ofSeconds(10), () ->
                    second.http().get("/clusters/prod-1/api/v1/namespaces/team-a/pods", "Authorization",
                            "Bearer " + eva.token()).statusCode() == 200);
        } finally {
            TestingPostgres.drop(database);
        }
    }
}
