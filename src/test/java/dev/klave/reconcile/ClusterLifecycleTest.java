package dev.klave.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.Kubectl;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole cluster story against the simulator: register, apply the
 * bootstrap with the real kubectl, paste the JSON, reconcile, grant, and check with kubectl acting
 * as the proxy that {@code user:<login>} with the derived groups can do exactly what the tier allows.
 */
class ClusterLifecycleTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestingClock clock = new TestingClock();
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private Kubectl clusterAdmin;

    @BeforeEach
    void start() {
        cluster = ClusterSimulator.builder().start();
        clusterAdmin = new Kubectl(cluster, cluster.adminToken());
        klave = TestingKlave.start(clock, settings -> settings);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        namespace("team-a", Optional.of("baseline"));
        namespace("team-b", Optional.empty());
    }

    @AfterEach
    void stop() {
        klave.close();
        clusterAdmin.close();
        cluster.close();
    }

    private void namespace(String name, Optional<String> enforce) {
        String labels = enforce.map(level -> "\n  labels:\n    pod-security.kubernetes.io/enforce: " + level).orElse("");
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + labels + "\n");
    }

    private HttpResponse<String> asAdmin(String method, String path, String body) {
        return http.send(method, path, body, "Cookie", admin);
    }

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(response.body(), e);
        }
    }

    private String tokensJson(String ca) {
        return TestingClusters.tokensJson(cluster, ca);
    }

    /** Registers prod-1 and bootstraps it the way an operator does; returns after the first pass. */
    private void bootstrap() throws Exception {
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        awaitFirstPass();
    }

    private void awaitFirstPass() {
        JsonNode view = Eventually.value("the first reconciliation of prod-1", Duration.ofSeconds(20),
                () -> Optional.of(json(asAdmin("GET", "/api/clusters/prod-1", null)))
                        .filter(shown -> !shown.get("last_reconciliation").isNull()));
        assertThat(view.get("status").asText()).as(view.toString()).isEqualTo("ready");
    }

    private String grant(String subjectId, String tier, String scope) {
        HttpResponse<String> created = asAdmin("POST", "/api/grants", "{\"subject_id\":\"" + subjectId
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"" + tier + "\",\"scope\":\"" + scope + "\",\"note\":\"test\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return json(created).get("id").asText();
    }

    private String subjectId(String login) {
        for (JsonNode subject : json(asAdmin("GET", "/api/subjects", null))) {
            if (subject.get("login").asText().equals(login)) {
                return subject.get("id").asText();
            }
        }
        throw new AssertionError(login);
    }

    /** A synchronous pass; a background pass (every change asks for one) may hold the cluster briefly. */
    private JsonNode reconcile() {
        HttpResponse<String> pass = Eventually.value("a reconcile pass not refused 409 (another pass running)",
                Duration.ofSeconds(5), () -> Optional.of(asAdmin("POST", "/api/clusters/prod-1/reconcile", null))
                        .filter(answer -> answer.statusCode() != 409));
        assertThat(pass.statusCode()).as(pass.body()).isEqualTo(200);
        return json(pass);
    }

    /** kubectl with the proxy's token, impersonating the way Klave's proxy will. */
    private Kubectl.Result asProxyFor(String login, String uid, List<String> groups, String... command) {
        return asProxyWithInput(login, uid, groups, "", command);
    }

    private Kubectl.Result asProxyWithInput(String login, String uid, List<String> groups, String stdin,
            String... command) {
        try (Kubectl proxy = new Kubectl(cluster, cluster.proxyToken())) {
            List<String> arguments = new java.util.ArrayList<>(List.of("--as=user:" + login, "--as-uid=" + uid));
            groups.forEach(group -> arguments.add("--as-group=" + group));
            arguments.addAll(List.of(command));
            return proxy.run(java.util.Map.of(), stdin, arguments.toArray(String[]::new));
        }
    }

    @Test
    void grantedTierDoesExactlyWhatItAllowsAndRevocationTakesItAway() throws Exception {
        bootstrap();
        TestingPeople.signUp(klave, "ana", false);
        String ana = subjectId("ana");
        String grant = grant(ana, "edit", "team-a");

        reconcile();

        assertThat(cluster.objects().get("rolebindings", "team-a", "klave-edit")).isPresent();
        List<String> groups = List.of("service:edit:team-a");
        assertThat(asProxyFor("ana", ana, groups, "get", "pods", "-n", "team-a").exitCode()).isZero();
        Kubectl.Result created = asProxyWithInput("ana", ana, groups,
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: \"1\"\n",
                "apply", "-n", "team-a", "-f", "-");
        assertThat(created.exitCode()).as(created.output()).isZero();
        Kubectl.Result otherNamespace = asProxyFor("ana", ana, groups, "get", "pods", "-n", "team-b");
        assertThat(otherNamespace.exitCode()).isNotZero();
        assertThat(otherNamespace.output()).contains("cannot list resource \"pods\"");
        Kubectl.Result rbac = asProxyFor("ana", ana, groups, "get", "rolebindings", "-n", "team-a");
        assertThat(rbac.output()).contains("forbidden");
        Kubectl.Result otherUser = asProxyFor("eva", ana, groups, "get", "pods", "-n", "team-a");
        assertThat(otherUser.output()).containsIgnoringCase("forbidden");

        assertThat(reconcile()).isEqualTo(JSON.readTree("{\"created\":0,\"updated\":0,\"deleted\":0}"));

        assertThat(asAdmin("DELETE", "/api/grants/" + grant, null).statusCode()).isEqualTo(204);
        reconcile();

        assertThat(asProxyFor("ana", ana, groups, "get", "pods", "-n", "team-a").output())
                .containsIgnoringCase("forbidden");
        assertThat(cluster.objects().list("rolebindings", "team-a")).isEmpty();
    }

    /**
     * A real API server answers a role without rules as {@code rules: null}; compared with Klave's
     * {@code []} it once made every pass rewrite the impersonation role of a cluster with no grant.
     */
    @Test
    void aClusterWithoutGrantsIsLeftAloneByTheNextPass() throws Exception {
        bootstrap();
        reconcile();
        assertThat(cluster.objects().get("clusterroles", null, "klave-impersonation").orElseThrow().get("rules")
                .isNull()).as("the simulator answers as the API server does").isTrue();
        cluster.clearRequests();

        assertThat(reconcile()).isEqualTo(JSON.readTree("{\"created\":0,\"updated\":0,\"deleted\":0}"));
        assertThat(cluster.requests()).noneMatch(request -> request.method().equals("PUT"));
    }

    /** What a real 1.26 API server showed: the agents' tools need aggregated discovery and nobody said so. */
    @Test
    void eachPassLearnsTheServersVersionAndWhetherItServesAggregatedDiscovery() throws Exception {
        bootstrap();
        reconcile();
        JsonNode current = json(asAdmin("GET", "/api/clusters/prod-1", null));
        assertThat(current.get("kubernetes_version").asText()).isEqualTo("v1.32.0");
        assertThat(current.get("aggregated_discovery").asBoolean()).isTrue();

        cluster.olderServer(true);
        try {
            reconcile();
            JsonNode older = json(asAdmin("GET", "/api/clusters/prod-1", null));

            assertThat(older.get("kubernetes_version").asText()).isEqualTo("v1.26.0");
            assertThat(older.get("aggregated_discovery").asBoolean(true)).isFalse();
            assertThat(older.get("status").asText()).as("the pass itself succeeds").isEqualTo("ready");
        } finally {
            cluster.olderServer(false);
        }
    }

    @Test
    void expiryAndDisableRemoveAccessOnTheNextPass() throws Exception {
        bootstrap();
        TestingPeople.signUp(klave, "ana", false);
        TestingPeople.signUp(klave, "eva", false);
        String ana = subjectId("ana");
        String eva = subjectId("eva");
        asAdmin("POST", "/api/grants", "{\"subject_id\":\"" + ana + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\","
                + "\"scope\":\"*\",\"expires_at\":\"2026-11-25T11:00:00Z\"}");
        grant(eva, "view", "team-a");
        reconcile();
        assertThat(asProxyFor("ana", ana, List.of("service:view:*"), "get", "pods", "-n", "team-b").exitCode()).isZero();

        clock.advance(Duration.ofHours(1));
        asAdmin("POST", "/api/subjects/" + eva + "/disable", null);
        reconcile();

        assertThat(asProxyFor("ana", ana, List.of("service:view:*"), "get", "pods", "-n", "team-b").output())
                .containsIgnoringCase("forbidden");
        assertThat(asProxyFor("eva", eva, List.of("service:view:team-a"), "get", "pods", "-n", "team-a").output())
                .containsIgnoringCase("forbidden");
        assertThat(cluster.objects().list("clusterrolebindings", null).stream()
                .map(binding -> binding.path("metadata").path("name").asText()))
                .doesNotContain("klave-view");
    }

    @Test
    void grantRulesAreEnforced() throws Exception {
        bootstrap();
        TestingPeople.signUp(klave, "ana", false);
        String ana = subjectId("ana");
        grant(ana, "view", "team-b");

        assertThat(asAdmin("POST", "/api/grants", "{\"subject_id\":\"" + ana + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"edit\",\"scope\":\"team-b\"}").body()).isEqualTo("{\"error\":\"el namespace team-b no "
                + "aplica pod-security (psa_enforce=ninguno): etiqueta el namespace con "
                + "pod-security.kubernetes.io/enforce=baseline o restricted antes de dar un tier de escritura\"}");
        HttpResponse<String> protectedNamespace = asAdmin("POST", "/api/grants", "{\"subject_id\":\"" + ana
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"kube-system\"}");
        assertThat(protectedNamespace.statusCode()).isEqualTo(400);
        assertThat(protectedNamespace.body()).startsWith("{\"error\":\"el namespace kube-system está protegido: ");
        assertThat(asAdmin("POST", "/api/grants", "{\"subject_id\":\"" + ana + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"team-b\"}").body()).isEqualTo("{\"error\":\"ese permiso ya existe\"}");
        assertThat(asAdmin("POST", "/api/grants", "{\"subject_id\":\"" + ana + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"cluster-admin\",\"scope\":\"team-a\"}").statusCode()).isEqualTo(400);
        assertThat(asAdmin("POST", "/api/grants", "{\"subject_id\":\"" + ana + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"owner\",\"scope\":\"team-a\"}").statusCode()).isEqualTo(400);
        assertThat(asAdmin("POST", "/api/grants", "{\"subject_id\":\"" + ana + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\",\"expires_at\":\"2020-01-01T00:00:00Z\"}").statusCode())
                .isEqualTo(400);

        JsonNode namespaces = json(asAdmin("GET", "/api/clusters/prod-1/namespaces", null));
        assertThat(namespaces.toString()).contains("{\"name\":\"team-a\",\"psa_enforce\":\"baseline\"}")
                .contains("{\"name\":\"team-b\",\"psa_enforce\":null}");
    }

    @Test
    void clusterDeletionCleansWhatKlaveManagedAndReportsIt() throws Exception {
        bootstrap();
        TestingPeople.signUp(klave, "ana", false);
        String ana = subjectId("ana");
        grant(ana, "edit", "team-a");
        grant(ana, "view", "*");
        reconcile();

        HttpResponse<String> deleted = asAdmin("DELETE", "/api/clusters/prod-1", null);

        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(json(deleted).get("rbac_cleanup")).isEqualTo(JSON.readTree("{\"status\":\"ok\",\"error\":null,"
                + "\"bindings_deleted\":2,\"roles_deleted\":1,\"lock_held\":false}"));
        assertThat(cluster.objects().list("rolebindings", "team-a")).isEmpty();
        assertThat(cluster.objects().get("clusterroles", null, "klave-impersonation")).isEmpty();
        assertThat(asAdmin("GET", "/api/clusters/prod-1", null).body()).isEqualTo("{\"error\":\"cluster no encontrado\"}");
        assertThat(json(asAdmin("GET", "/api/grants", null))).isEmpty();
    }

    @Test
    void wrongCaAndUnreachableServerAreRefusedWithTheirTexts() throws Exception {
        assertThat(asAdmin("POST", "/api/clusters", "{\"id\":\"prod-1\",\"name\":\"P\"}").statusCode()).isEqualTo(201);
        try (ClusterSimulator other = ClusterSimulator.builder().start()) {
            HttpResponse<String> mismatch = asAdmin("POST", "/api/clusters/prod-1/tokens",
                    tokensJson(other.caCertificatePem()));
            assertThat(mismatch.statusCode()).isEqualTo(502);
            assertThat(mismatch.body()).isEqualTo("{\"error\":\"no se pudo hablar con el API server del cluster: el "
                    + "certificado del API server no coincide con la CA registrada\"}");
        }
        cluster.down();
        HttpResponse<String> unreachable = asAdmin("POST", "/api/clusters/prod-1/tokens",
                tokensJson(cluster.caCertificatePem()));
        assertThat(unreachable.statusCode()).isEqualTo(502);
        assertThat(unreachable.body()).isEqualTo(
                "{\"error\":\"no se pudo hablar con el API server del cluster: API server inalcanzable\"}");
        assertThat(json(asAdmin("GET", "/api/clusters/prod-1", null)).get("status").asText()).isEqualTo("pending");
    }

    @Test
    void reconcileAnswersConflictsAndClusterFailures() throws Exception {
        assertThat(asAdmin("POST", "/api/clusters", "{\"id\":\"prod-1\",\"name\":\"P\"}").statusCode()).isEqualTo(201);
        HttpResponse<String> noTokens = asAdmin("POST", "/api/clusters/prod-1/reconcile", null);
        assertThat(noTokens.statusCode()).isEqualTo(409);
        assertThat(noTokens.body()).startsWith("{\"error\":\"el cluster no tiene tokens todavía: ");
        asAdmin("DELETE", "/api/clusters/prod-1", null);

        bootstrap();
        TestingClusters.holdReconcileLease(klave, "prod-1", "another-replica", clock, Duration.ofMinutes(2));
        HttpResponse<String> busy = asAdmin("POST", "/api/clusters/prod-1/reconcile", null);
        assertThat(busy.statusCode()).isEqualTo(409);
        assertThat(busy.body()).isEqualTo("{\"error\":\"ya hay una reconciliación de este cluster en curso\"}");

        clock.advance(Duration.ofMinutes(3));
        cluster.down();
        HttpResponse<String> failed = asAdmin("POST", "/api/clusters/prod-1/reconcile", null);
        assertThat(failed.statusCode()).isEqualTo(502);
        assertThat(failed.body()).isEqualTo(
                "{\"error\":\"no se pudo hablar con el API server del cluster: API server inalcanzable\"}");
        JsonNode view = json(asAdmin("GET", "/api/clusters/prod-1", null));
        assertThat(view.get("status").asText()).isEqualTo("error");
        assertThat(view.get("last_error").asText()).isEqualTo(
                "no se pudo hablar con el API server del cluster: API server inalcanzable");
    }
}
