package dev.klave.proxy;

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
import dev.klave.testing.TestingTls;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The real kubectl, with the kubeconfig Klave issued, through Klave's proxy to the simulator
 * (spec 1 §4 "Proxy"): every request impersonated and audited.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProxyEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private String ana;
    private String anaId;
    private String token;
    private Kubectl kubectl;

    @BeforeAll
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n"
                + "    pod-security.kubernetes.io/enforce: baseline\n");
        cluster.objects().put("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  namespace: team-a\n"
                + "spec:\n  containers:\n  - name: web\n    image: nginx\n    ports:\n    - containerPort: 7000\n");
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        // The kubeconfig points at the base URL, so it must be where this Klave really listens; and
        // kubectl sends bearer tokens only over TLS, so Klave serves HTTPS here.
        TestingTls tls = TestingTls.generate();
        klave = TestingKlave.start(new TestingClock(), settings -> settings
                .with("SERVICE_LISTEN", "127.0.0.1:" + port)
                .with("SERVICE_BASE_URL", "https://127.0.0.1:" + port)
                .with("SERVICE_TLS_CERT", tls.certificate().toString())
                .with("SERVICE_TLS_KEY", tls.privateKey().toString())
                .with("SERVICE_KUBECONFIG_CA", tls.certificate().toString()));
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        ana = TestingPeople.signUp(klave, "ana", false);
        anaId = JSON.readTree(http.get("/api/me", "Cookie", ana).body()).get("id").asText();
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        HttpResponse<String> granted = http.send("POST", "/api/grants", "{\"subject_id\":\"" + anaId
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"edit\",\"scope\":\"team-a\"}", "Cookie", admin);
        assertThat(granted.statusCode()).as(granted.body()).isEqualTo(201);
        assertThat(http.send("POST", "/api/clusters/prod-1/reconcile", null, "Cookie", admin).statusCode())
                .isIn(200, 409);
        awaitBinding();
        JsonNode issued = JSON.readTree(http.send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie", ana).body());
        token = issued.get("token").asText();
        kubectl = new Kubectl(issued.get("kubeconfig").asText());
    }

    private void awaitBinding() {
        Eventually.until("the edit binding in team-a", Duration.ofSeconds(5),
                () -> cluster.objects().get("rolebindings", "team-a", "klave-edit").isPresent());
    }

    @AfterAll
    void stop() {
        kubectl.close();
        klave.close();
        cluster.close();
    }

    private List<JsonNode> auditRows(String query) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        JSON.readTree(http.get("/api/audit?" + query, "Cookie", ana).body()).get("events").forEach(rows::add);
        return rows;
    }

    @Test
    void kubectlGetsAppliesAndDeletesThroughKlaveAsTheImpersonatedPerson() throws Exception {
        Kubectl.Result pods = kubectl.run("get", "pods", "-n", "team-a");
        assertThat(pods.exitCode()).as(pods.output()).isZero();
        assertThat(pods.stdout()).contains("web-0");

        Kubectl.Result applied = kubectl.run(Map.of(), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n"
                + "data:\n  mode: prod\n", "apply", "-n", "team-a", "-f", "-");
        assertThat(applied.exitCode()).as(applied.output()).isZero();
        assertThat(cluster.objects().get("configmaps", "team-a", "settings")).isPresent();

        Kubectl.Result deleted = kubectl.run("delete", "configmap", "settings", "-n", "team-a");
        assertThat(deleted.exitCode()).as(deleted.output()).isZero();
        assertThat(cluster.objects().get("configmaps", "team-a", "settings")).isEmpty();

        Kubectl.Result forbidden = kubectl.run("get", "secrets", "-n", "kube-system");
        assertThat(forbidden.exitCode()).isNotZero();
        assertThat(forbidden.output()).contains("User \"user:ana\" cannot list resource \"secrets\"");

        boolean impersonated = cluster.requests().stream().anyMatch(request ->
                request.header("Impersonate-User").equals(java.util.Optional.of("user:ana"))
                        && request.header("Impersonate-Uid").equals(java.util.Optional.of(anaId))
                        && request.headers("Impersonate-Group").equals(List.of("service:edit:team-a"))
                        && request.header("Authorization").equals(
                                java.util.Optional.of("Bearer " + cluster.proxyToken())));
        assertThat(impersonated).isTrue();
        assertThat(cluster.requests()).noneMatch(request -> request.header("Authorization")
                .map(value -> value.contains("klt_")).orElse(false));
        List<JsonNode> rows = auditRows("cluster=prod-1&namespace=team-a");
        assertThat(rows).extracting(row -> row.get("verb").asText() + " " + row.get("resource").asText() + " "
                + row.get("status").asInt()).contains("list pods 200", "delete configmaps 200");
    }

    @Test
    void kubectlExecRunsThroughKlaveOverWebSocket() throws Exception {
        Kubectl.Result echoed = kubectl.run("exec", "web-0", "-n", "team-a", "--", "echo", "hola", "desde", "klave");

        assertThat(echoed.exitCode()).as(echoed.output()).isZero();
        // With stderr: kubectl's own warnings tell whether it dropped a frame or never got one.
        assertThat(echoed.stdout()).as(echoed.output()).isEqualTo("hola desde klave\n");
        Kubectl.Result piped = kubectl.run(Map.of(), "entrada por stdin\n", "exec", "-i", "web-0", "-n", "team-a", "--",
                "cat");
        assertThat(piped.stdout()).as(piped.output()).isEqualTo("entrada por stdin\n");
        JsonNode row = Eventually.value("a completed exec row", Duration.ofSeconds(5), () -> {
            for (JsonNode candidate : JSON.readTree(http.get("/api/audit?resource=pods/exec", "Cookie", ana).body())
                    .get("events")) {
                if (!candidate.get("status").isNull()) {
                    return java.util.Optional.of(candidate);
                }
            }
            return java.util.Optional.empty();
        });
        assertThat(row.get("status").asInt()).isEqualTo(101);
        assertThat(row.get("verb").asText()).isEqualTo("get");
    }

    @Test
    void kubectlExecFallsBackToSpdyThroughKlave() {
        Kubectl.Result echoed = kubectl.run(Map.of("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "false"), "entrada spdy\n",
                "exec", "-i", "web-0", "-n", "team-a", "--", "cat");

        assertThat(echoed.exitCode()).as(echoed.output()).isZero();
        assertThat(echoed.stdout()).isEqualTo("entrada spdy\n");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "websockets={0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"true", "false"})
    void kubectlPortForwardCarriesBytesBothWays(String websockets) throws Exception {
        Process forward = kubectl.start(Map.of("KUBECTL_PORT_FORWARD_WEBSOCKETS", websockets),
                "port-forward", "pod/web-0", "-n", "team-a", ":7000");
        try {
            java.util.regex.Pattern forwarding = java.util.regex.Pattern.compile("Forwarding from 127\\.0\\.0\\.1:(\\d+)");
            int localPort = Eventually.value("kubectl's forwarding port", Duration.ofSeconds(10), () -> {
                java.util.regex.Matcher matcher = forwarding.matcher(kubectl.read(forward, "stdout"));
                if (matcher.find()) {
                    return java.util.Optional.of(Integer.parseInt(matcher.group(1)));
                }
                if (!forward.isAlive()) {
                    throw new AssertionError("kubectl port-forward ended: " + kubectl.read(forward, "stderr"));
                }
                return java.util.Optional.empty();
            });
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", localPort)) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write("ping klave\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                byte[] answer = socket.getInputStream().readNBytes(11);
                assertThat(new String(answer, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("ping klave\n");
            }
        } finally {
            forward.destroy();
        }
    }

    @Test
    void kubectlLogsComeThroughKlave() {
        cluster.appendLog("team-a", "web-0", "web", "línea desde el pod");

        Kubectl.Result logs = kubectl.run("logs", "web-0", "-n", "team-a");

        assertThat(logs.exitCode()).as(logs.output()).isZero();
        assertThat(logs.stdout()).contains("línea desde el pod");
    }

    @Test
    void kubectlWatchEndsWithinTenSecondsOfTheRevocation() throws Exception {
        JsonNode issued = JSON.readTree(http.send("POST", "/api/credentials", "{\"ttl\":\"1h\",\"name\":\"watch\"}",
                "Cookie", ana).body());
        try (Kubectl watcher = new Kubectl(issued.get("kubeconfig").asText())) {
            int watchesBefore = cluster.openWatches();
            Process watch = watcher.start(Map.of(), "get", "configmaps", "-n", "team-a", "-w");
            Eventually.until("kubectl's watch open at the cluster", Duration.ofSeconds(10),
                    () -> cluster.openWatches() > watchesBefore);
            assertThat(watch.isAlive()).as(watcher.read(watch, "stderr")).isTrue();

            long revokedAt = System.nanoTime();
            http.send("POST", "/api/credentials/" + issued.get("id").asText() + "/revoke", null, "Cookie", ana);

            assertThat(watch.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(java.time.Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThan(java.time.Duration.ofSeconds(10));
        }
    }

    @Test
    void everyAnswerCarriesAnAuditIdThatNamesItsRowWithItsStatusAtOnce() throws Exception {
        HttpResponse<String> response = http.get("/clusters/prod-1/api/v1/namespaces/team-a/pods/web-0",
                "Authorization", "Bearer " + token);

        assertThat(response.statusCode()).isEqualTo(200);
        String auditId = response.headers().firstValue("Audit-ID").orElseThrow();
        // Read once, right after the answer: the status is there, not on its way (the writer
        // holds completions for the next rows; an audit read has it write them first).
        JsonNode row = JSON.readTree(http.get("/api/audit/" + auditId, "Cookie", ana).body());
        assertThat(row.get("verb").asText()).isEqualTo("get");
        assertThat(row.get("resource").asText()).isEqualTo("pods");
        assertThat(row.get("name").asText()).isEqualTo("web-0");
        assertThat(row.get("subject").asText()).isEqualTo("ana");
        assertThat(row.get("status").asInt()).isEqualTo(200);
        String eva = TestingPeople.signUp(klave, "eva-" + System.nanoTime() % 1000, false);
        assertThat(http.get("/api/audit/" + auditId, "Cookie", eva).statusCode()).isEqualTo(404);

        String second = http.get("/clusters/prod-1/api/v1/namespaces/team-a/pods/web-0", "Authorization",
                "Bearer " + token).headers().firstValue("Audit-ID").orElseThrow();
        JsonNode listed = auditRows("resource=pods").stream()
                .filter(candidate -> candidate.get("id").asText().equals(second)).findFirst().orElseThrow();
        assertThat(listed.get("status").asInt()).as("a page read sees it at once too").isEqualTo(200);
    }
}
