package dev.klave.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import dev.klave.audit.Channel;
import dev.klave.cluster.ClusterId;
import dev.klave.messages.Message;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.RecordedRequest;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A second way into a cluster, with no Vert.x type in sight: a call through the gateway's
 * exchange gets the same audit row, the same refusals and the same cut on revocation as the same
 * request through {@code /clusters/<id>/}, and reaches the cluster as its caller — the proxy token
 * and the caller's impersonation, never Klave's reconciler identity.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterExchangeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ClusterId PROD = new ClusterId("prod-1");
    private static final ClusterPath CONFIGMAPS = ClusterPath.of("api", "v1", "namespaces", "team-a", "configmaps");

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private TestingAccess.Viewer ana;
    private ClusterExchange exchange;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        ana = TestingAccess.viewer(klave, cluster);
        exchange = klave.hooks().clusterExchange();
    }

    @AfterEach
    void healthy() {
        cluster.healthy();
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    private static Call call(String method, ClusterPath path, String query) {
        return Call.of(PROD, Method.parse(method).orElseThrow(), path, Query.parse(query),
                InetAddress.getLoopbackAddress(),
                Channel.tool("list_resources"));
    }

    /** The bearer a token names, as an edge resolves it once (the exchange never sees the token). */
    private Bearer bearer(String token) {
        return klave.hooks().bearers().resolve(Bearers.token(Optional.of("Bearer " + token)),
                dev.klave.gateway.BearerResolver.Edge.PROXY);
    }

    private Exchanged get(String token, ClusterPath path) {
        return exchange.exchange(bearer(token), call("GET", path, ""), ClusterExchange.Outgoing.NONE);
    }

    private JsonNode row(String auditId) throws Exception {
        return JSON.readTree(http.get("/api/audit/" + auditId, "Cookie", ana.admin()).body());
    }

    private HttpResponse<String> viaProxy(String token, ClusterPath path) {
        return http.get("/clusters/prod-1" + path.encoded(), "Authorization", "Bearer " + token);
    }

    @Test
    void aCallLeavesTheSameRowAsTheSameRequestThroughTheProxySaveHowItCame() throws Exception {
        HttpResponse<String> proxied = viaProxy(ana.token(), CONFIGMAPS);
        Exchanged exchanged = get(ana.token(), CONFIGMAPS);

        assertThat(exchanged).isInstanceOf(Exchanged.Answered.class);
        assertThat(((Exchanged.Answered) exchanged).status()).isEqualTo(proxied.statusCode()).isEqualTo(200);
        JsonNode viaProxy = row(proxied.headers().firstValue("Audit-ID").orElseThrow());
        JsonNode viaGateway = row(exchanged.auditId());
        for (String field : List.of("subject", "cluster", "namespace", "verb", "resource", "name", "credential",
                "status", "error", "path", "client_ip")) {
            assertThat(viaGateway.get(field)).as(field).isEqualTo(viaProxy.get(field));
        }
        assertThat(viaProxy.get("channel").asText()).isEqualTo("proxy");
        assertThat(viaGateway.get("channel").asText()).isEqualTo("tool");
        assertThat(viaGateway.get("tool").asText()).isEqualTo("list_resources");
    }

    @Test
    void theClusterSeesTheCallerImpersonatedUnderTheProxyTokenNeverTheReconcilers() {
        cluster.clearRequests();

        get(ana.token(), CONFIGMAPS);

        RecordedRequest seen = cluster.requests().stream()
                .filter(request -> request.path().equals(CONFIGMAPS.encoded())).findFirst().orElseThrow();
        assertThat(seen.header("authorization")).contains("Bearer " + cluster.proxyToken());
        assertThat(seen.header("impersonate-user")).contains("user:ana");
        assertThat(seen.header("impersonate-uid")).isPresent();
        assertThat(seen.headers("impersonate-group")).containsExactly("service:view:*");
    }

    @Test
    void aRevokedCredentialIsRefusedAndItsRowNamesIt() throws Exception {
        JsonNode issued = JSON.readTree(http.send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie",
                ana.cookie()).body());
        http.send("POST", "/api/credentials/" + issued.get("id").asText() + "/revoke", null, "Cookie", ana.cookie());

        Exchanged refused = get(issued.get("token").asText(), CONFIGMAPS);
        HttpResponse<String> proxied = viaProxy(issued.get("token").asText(), CONFIGMAPS);

        assertThat(((Exchanged.Refused) refused).refusal().kind()).isEqualTo(Message.CREDENTIAL_REVOKED);
        assertThat(proxied.statusCode()).isEqualTo(401);
        JsonNode row = row(refused.auditId());
        assertThat(row.get("credential").asText()).isEqualTo(issued.get("id").asText());
        assertThat(row.get("error").asText()).isEqualTo("credencial revocada");
    }

    @Test
    void aCallWaitingForTheClusterIsCutWithinTenSecondsOfItsRevocationAsTheProxyCutsOne() throws Exception {
        JsonNode issued = JSON.readTree(http.send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie",
                ana.cookie()).body());
        String token = issued.get("token").asText();
        get(token, CONFIGMAPS);
        cluster.slow(Duration.ofSeconds(25));
        int before = klave.hooks().openCalls().size();
        CompletableFuture<Exchanged> waiting;
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            waiting = CompletableFuture.supplyAsync(() -> get(token, CONFIGMAPS), threads);
            Eventually.until("the call held open", Duration.ofSeconds(5),
                    () -> klave.hooks().openCalls().size() > before);

            long revokedAt = System.nanoTime();
            http.send("POST", "/api/credentials/" + issued.get("id").asText() + "/revoke", null, "Cookie",
                    ana.cookie());
            Exchanged cut = waiting.get(10, TimeUnit.SECONDS);

            assertThat(Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThan(Duration.ofSeconds(10));
            assertThat(cut).isInstanceOf(Exchanged.Refused.class);
            assertThat(((Exchanged.Refused) cut).refusal().kind()).isEqualTo(Message.CREDENTIAL_NO_LONGER_VALID);
            JsonNode row = row(cut.auditId());
            assertThat(row.get("status").asInt()).isEqualTo(403);
            assertThat(row.get("error").asText()).isEqualTo(Message.CREDENTIAL_NO_LONGER_VALID.text());
        }
    }

    @Test
    void aClusterErrorComesBackAsItsParsedStatus() {
        Exchanged answered = get(ana.token(),
                ClusterPath.of("api", "v1", "namespaces", "team-a", "configmaps", "nowhere"));

        Exchanged.Answered answer = (Exchanged.Answered) answered;
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.failure()).hasValueSatisfying(status -> {
            assertThat(status.reason()).isEqualTo("NotFound");
            assertThat(status.code()).isEqualTo(404);
            assertThat(status.message()).contains("nowhere");
        });
    }

    @Test
    void anAnswerOverTheCapIsDiscardedAndAClusterTooSlowTimesOutBothSaidInTheRow() throws Exception {
        ClusterExchange small = new ClusterExchange(klave.hooks().gateway(), klave.hooks().chain(),
                new dev.klave.cluster.ClusterEndpoints(), Clock.systemUTC(),
                Duration.ofSeconds(2), 512);
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: team-a\n"
                + "data:\n  blob: " + "x".repeat(4096) + "\n");

        Exchanged tooLarge = small.exchange(bearer(ana.token()), call("GET", CONFIGMAPS, ""),
                ClusterExchange.Outgoing.NONE);
        cluster.slow(Duration.ofSeconds(5));
        Exchanged tooSlow = small.exchange(bearer(ana.token()), call("GET", CONFIGMAPS, ""),
                ClusterExchange.Outgoing.NONE);

        assertThat(((Exchanged.Failed) tooLarge).message()).isEqualTo(Message.AUDIT_ANSWER_TOO_LARGE);
        assertThat(row(tooLarge.auditId()).get("error").asText())
                .isEqualTo("respuesta del cluster descartada: más de 512 bytes");
        assertThat(((Exchanged.Failed) tooSlow).message()).isEqualTo(Message.UPSTREAM_TIMEOUT);
        assertThat(row(tooSlow.auditId()).get("status").asInt()).isEqualTo(502);
    }

    @Test
    void aWriteCarriesItsBodyAndIsAuditedAsTheClusterAnswered() throws Exception {
        byte[] body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"from-tool\"}}"
                .getBytes(StandardCharsets.UTF_8);

        Exchanged created = exchange.exchange(bearer(ana.token()), call("POST", CONFIGMAPS, ""),
                ClusterExchange.Outgoing.json(body, "application/json"));

        // ana is a viewer: the cluster's RBAC refuses her write, through impersonation.
        Exchanged.Answered answer = (Exchanged.Answered) created;
        assertThat(answer.status()).isEqualTo(403);
        assertThat(answer.failure().orElseThrow().reason()).isEqualTo("Forbidden");
        JsonNode row = row(created.auditId());
        assertThat(row.get("verb").asText()).isEqualTo("create");
        assertThat(row.get("status").asInt()).isEqualTo(403);
    }
}
