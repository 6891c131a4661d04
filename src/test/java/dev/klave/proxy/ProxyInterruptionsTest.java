package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Requests interrupted on the way: a credential invalidated in flight, and a replica shutting down. */
class ProxyInterruptionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private String ana;
    private String credentialId;
    private String token;

    @BeforeEach
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n");
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_SHUTDOWN_DELAY", "2s")
                .with("SERVICE_PROXY_TIMEOUT", "2s"));
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        ana = TestingPeople.signUp(klave, "ana", false);
        String anaId = JSON.readTree(klave.http().get("/api/me", "Cookie", ana).body()).get("id").asText();
        klave.http().send("POST", "/api/grants", "{\"subject_id\":\"" + anaId + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin);
        Eventually.until("the view binding in the cluster", Duration.ofSeconds(5),
                () -> cluster.objects().get("clusterrolebindings", null, "klave-view").isPresent());
        JsonNode issued = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie", ana)
                .body());
        credentialId = issued.get("id").asText();
        token = issued.get("token").asText();
    }

    @AfterEach
    void stop() {
        klave.close();
        cluster.close();
    }

    private CompletableFuture<HttpResponse<String>> request(String path) {
        return HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + klave.port() + path)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void requestInFlightWhenItsCredentialIsRevokedGetsTheSpecs403() throws Exception {
        cluster.slow(Duration.ofSeconds(8));
        CompletableFuture<HttpResponse<String>> inFlight = request("/clusters/prod-1/api/v1/namespaces/team-a/pods");
        awaitAtTheCluster("/api/v1/namespaces/team-a/pods");

        klave.http().send("POST", "/api/credentials/" + credentialId + "/revoke", null, "Cookie", ana);

        HttpResponse<String> cut = inFlight.get(10, TimeUnit.SECONDS);
        assertThat(cut.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(cut.body()).get("message").asText()).isEqualTo(
                "la credencial ya no es válida: revocada, caducada, cuenta deshabilitada o permisos cambiados");
        cluster.healthy();
    }

    @Test
    void clusterThatDoesNotAnswerInTimeIs502TimedOut() throws Exception {
        cluster.slow(Duration.ofSeconds(6));

        HttpResponse<String> response = request("/clusters/prod-1/api/v1/namespaces").get(20, TimeUnit.SECONDS);

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(JSON.readTree(response.body()).get("message").asText())
                .isEqualTo("no se pudo hablar con el API server del cluster: tiempo de espera agotado");
        cluster.healthy();
    }

    @Test
    void clientThatHangsUpLeavesA499Row() throws Exception {
        cluster.slow(Duration.ofSeconds(3));
        String auditId;
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", klave.port())) {
            socket.getOutputStream().write(("GET /clusters/prod-1/api/v1/namespaces/team-a/pods HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            awaitAtTheCluster("/api/v1/namespaces/team-a/pods");
        }
        cluster.healthy();
        JsonNode row = Eventually.value("the 499 row of the hung-up request", Duration.ofSeconds(5), () -> {
            for (JsonNode candidate : JSON.readTree(klave.http().get("/api/audit?resource=pods", "Cookie", ana).body())
                    .get("events")) {
                if (candidate.get("status").asInt() == 499) {
                    return Optional.of(candidate);
                }
            }
            return Optional.empty();
        });
        assertThat(row.get("error").asText()).isEqualTo("cliente desconectado");
    }

    /** Waits until a request for {@code path} reached the cluster (the simulator records it on arrival). */
    private void awaitAtTheCluster(String path) {
        Eventually.until("a request for " + path + " at the cluster", Duration.ofSeconds(5),
                () -> cluster.requests().stream().anyMatch(request -> request.path().equals(path)));
    }

    @Test
    void upgradeTheClusterRefusesIsAnsweredAsItCameAndTheConnectionClosed() throws Exception {
        cluster.objects().put("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  namespace: team-a\n"
                + "spec:\n  containers:\n  - name: web\n    image: nginx\n");
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", klave.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /clusters/prod-1/api/v1/namespaces/team-a/pods/web-0/exec"
                    + "?command=sh&stdout=true HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                    + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: v5.channel.k8s.io\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);

            // A view grant cannot exec: the cluster's 403 comes back, and the connection ends.
            assertThat(answer).startsWith("HTTP/1.1 403").containsIgnoringCase("connection: close")
                    .contains("cannot get resource").contains("pods/exec").contains("\"code\":403");
        }
    }

    @Test
    void shuttingDownCutsWatchesAndRefusesNewRequests() throws Exception {
        HttpResponse<InputStream> watch = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + klave.port() + "/clusters/prod-1/api/v1/namespaces/team-a/configmaps?watch=1"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofInputStream());
        CompletableFuture<Void> watchEnded = CompletableFuture.runAsync(() -> {
            try (InputStream body = watch.body()) {
                body.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (java.io.IOException cut) {
                // ended
            }
        });
        String auditId = watch.headers().firstValue("Audit-ID").orElseThrow();

        CompletableFuture<Void> stopping = CompletableFuture.runAsync(klave.klave()::close);
        watchEnded.get(10, TimeUnit.SECONDS);
        HttpResponse<String> refused = klave.http().get("/clusters/prod-1/api/v1/namespaces",
                "Authorization", "Bearer " + token);

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(refused.body()).get("message").asText()).isEqualTo("Klave se está reiniciando");
        stopping.get(30, TimeUnit.SECONDS);
        assertThat(auditRow(auditId)).isEqualTo("Klave reiniciando");
    }

    /** Reads the row straight from the database file after the replica stopped. */
    private String auditRow(String auditId) throws Exception {
        String url = "jdbc:sqlite:" + klave.klave().settings().database().display().substring("sqlite:".length());
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(url);
                java.sql.PreparedStatement statement = connection.prepareStatement(
                        "SELECT error FROM audit_completion WHERE id = ?")) {
            statement.setObject(1, dev.klave.store.AuditKeys.bound(dev.klave.store.Dialect.SQLITE, auditId));
            try (java.sql.ResultSet result = statement.executeQuery()) {
                return result.next() ? result.getString(1) : null;
            }
        }
    }
}
