package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every proxy error of spec 1 §7 with its exact Status, every forbidden header variant and path
 * trick — and in each refused case, nothing reached the cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProxyRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestingClock clock = new TestingClock();
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private String valid;
    private String validId;
    private String revoked;
    private String expiring;
    private String restricted;
    private String disabledOwner;
    private String noGrantHere;
    private String otherCluster;

    @BeforeAll
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n"
                + "    pod-security.kubernetes.io/enforce: baseline\n");
        klave = TestingKlave.start(clock, settings -> settings);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        http.send("POST", "/api/clusters", "{\"id\":\"prod-2\",\"name\":\"sin tokens\"}", "Cookie", admin);
        String ana = person("ana", "prod-1", "prod-2");
        valid = credential(ana, "{\"ttl\":\"12h\"}");
        validId = JSON.readTree(http.get("/api/credentials", "Cookie", ana).body()).get(0).get("id").asText();
        JsonNode toRevoke = JSON.readTree(http.send("POST", "/api/credentials", "{\"ttl\":\"12h\"}", "Cookie", ana)
                .body());
        revoked = toRevoke.get("token").asText();
        expiring = credential(ana, "{\"ttl\":\"30m\"}");
        restricted = credential(ana, "{\"ttl\":\"12h\",\"cluster_id\":\"prod-2\"}");
        otherCluster = valid;
        String eva = person("eva", "prod-1");
        disabledOwner = credential(eva, "{\"ttl\":\"12h\"}");
        String bob = person("bob", "prod-2");
        noGrantHere = credential(bob, "{\"ttl\":\"12h\"}");
        http.send("POST", "/api/credentials/" + toRevoke.get("id").asText() + "/revoke", null, "Cookie", ana);
        String evaId = JSON.readTree(http.get("/api/me", "Cookie", eva).body()).get("id").asText();
        // Disabling through the API also revokes the credential (then it answers "revocada"); to see
        // the owner check itself, the account is marked disabled behind the API's back.
        klave.klave().database().withHandle(handle -> handle.createUpdate(
                "UPDATE subjects SET disabled_at = 1 WHERE id = :id").bind("id", evaId).execute());
        clock.advance(Duration.ofMinutes(31));
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    private String person(String login, String... clusters) throws Exception {
        String cookie = TestingPeople.signUp(klave, login, false);
        String id = JSON.readTree(http.get("/api/me", "Cookie", cookie).body()).get("id").asText();
        for (String clusterId : clusters) {
            HttpResponse<String> granted = http.send("POST", "/api/grants", "{\"subject_id\":\"" + id
                    + "\",\"cluster_id\":\"" + clusterId + "\",\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin);
            assertThat(granted.statusCode()).as(granted.body()).isEqualTo(201);
        }
        return cookie;
    }

    private String credential(String cookie, String body) throws Exception {
        HttpResponse<String> issued = http.send("POST", "/api/credentials", body, "Cookie", cookie);
        assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
        return JSON.readTree(issued.body()).get("token").asText();
    }

    private HttpResponse<String> get(String path, String token, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Authorization";
        all[1] = "Bearer " + token;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return http.get(path, all);
    }

    private static void assertStatus(HttpResponse<String> response, int code, String message) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(code);
        assertThat(response.headers().firstValue("Audit-ID")).isPresent();
        JsonNode status = JSON.readTree(response.body());
        assertThat(status.get("kind").asText()).isEqualTo("Status");
        assertThat(status.get("apiVersion").asText()).isEqualTo("v1");
        assertThat(status.get("status").asText()).isEqualTo("Failure");
        assertThat(status.get("code").asInt()).isEqualTo(code);
        assertThat(status.get("message").asText()).isEqualTo(message);
    }

    private boolean reached(String marker) {
        return cluster.requests().stream().anyMatch(request -> request.path().contains(marker));
    }

    @Test
    void credentialFailuresAnswerTheSpecsStatusAndNothingIsForwarded() throws Exception {
        String path = "/clusters/prod-1/api/v1/namespaces/team-a/configmaps/credential-marker";
        assertStatus(http.get(path), 401, "hace falta un token (Authorization: Bearer klt_...)");
        assertStatus(http.get(path, "Authorization", "Basic YWRtaW46YWRtaW4="), 401,
                "hace falta un token (Authorization: Bearer klt_...)");
        assertStatus(get(path, "klt_" + "A".repeat(43)), 401, "credencial desconocida");
        assertStatus(get(path, revoked), 401, "credencial revocada");
        assertStatus(get(path, expiring), 401, "credencial caducada");
        assertStatus(get(path, disabledOwner), 403, "la cuenta está deshabilitada");
        assertStatus(get(path, restricted), 403, "esta credencial está restringida al cluster prod-2");
        assertStatus(get(path, noGrantHere), 403, "user:bob no tiene permisos activos en el cluster prod-1");
        assertStatus(get("/clusters/nope/api/v1/configmaps-marker", valid), 404, "cluster desconocido");
        assertStatus(get("/clusters/prod-2/api/v1/configmaps-marker", otherCluster), 503,
                "el cluster todavía no tiene tokens configurados");
        assertThat(reached("credential-marker")).isFalse();
        assertThat(reached("configmaps-marker")).isFalse();
    }

    @Test
    void validCredentialReachesTheClusterAndItsAnswerComesBack() throws Exception {
        HttpResponse<String> allowed = get("/clusters/prod-1/api/v1/namespaces/team-a/configmaps", valid);
        HttpResponse<String> forbidden = get("/clusters/prod-1/api/v1/namespaces/team-a/secrets", valid);

        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.headers().firstValue("Audit-ID")).isPresent();
        assertThat(forbidden.statusCode()).isEqualTo(403);
        assertThat(forbidden.body()).contains("User \\\"user:ana\\\" cannot list resource \\\"secrets\\\"");
        assertThat(get("/clusters/prod-1", valid).statusCode()).isEqualTo(get("/clusters/prod-1/", valid).statusCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Impersonate-User", "impersonate-user", "IMPERSONATE-GROUP", "Impersonate-Uid",
        "Impersonate-Extra-Scopes"})
    void clientImpersonationHeadersAreRefused(String header) throws Exception {
        HttpResponse<String> response = get("/clusters/prod-1/api/v1/namespaces/team-a/pods/impersonate-marker", valid,
                header, "system:admin");

        assertStatus(response, 400, "Klave no admite cabeceras Impersonate-* (kubectl --as no está soportado)");
        assertThat(reached("impersonate-marker")).isFalse();
        // A refusal is no discovery: the row names what was asked and shows without include_discovery.
        String auditId = response.headers().firstValue("Audit-ID").orElseThrow();
        JsonNode row = auditRow(auditId);
        assertThat(row.get("resource").asText()).isEqualTo("pods");
        assertThat(row.get("name").asText()).isEqualTo("impersonate-marker");
        assertThat(row.get("verb").asText()).isEqualTo("get");
        assertThat(JSON.readTree(http.get("/api/audit?verb=get&resource=pods", "Cookie", admin).body()).get("events")
                .findValuesAsText("id")).contains(auditId);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/clusters/prod-1/api//v1/path-marker", "/clusters/prod-1/api/./v1/path-marker",
        "/clusters/prod-1/api/../api/v1/path-marker", "/clusters/prod-1/%2e%2e/api/v1/path-marker",
        "/clusters/prod-1/api%2Fv1/path-marker", "/clusters/prod-1/api/v1/path-marker;x=1",
        "/clusters/prod-1/api/v1/path-marker/", "/clusters/prod-1/api\\v1/path-marker",
        "/clusters/prod-1/api/v1/%70ath-marker", "/clusters//prod-1/api/v1/path-marker",
        "/clusters/%70rod-1/api/v1/path-marker", "/clusters/prod-1/api/v1/path-marker#frag",
        "/clusters/prod-1/api/v1/path-marker?x=a#b", "/clusters/prod-1/api/v1/path-marker?x=%zz",
        "/clusters/prod-1/api/v1/path-marker?x={}", "/clusters/prod-1/api/v1/\"path-marker\""})
    void pathTricksAreRefusedOnTheRawTarget(String target) throws Exception {
        String answer = raw(target);

        assertThat(answer).startsWith("HTTP/1.1 400").contains("\"message\":\"ruta no válida: segmentos vacíos, "
                + "'.' o '..' o caracteres escapados no están permitidos\"");
        assertThat(reached("path-marker")).isFalse();
        assertThat(reached("ath-marker")).isFalse();
    }

    /** What a real API server showed: kubectl create --dry-run=server was audited as a create like any other. */
    @Test
    void aDryRunIsAuditedAsOneAndTheListingFiltersIt() throws Exception {
        HttpResponse<String> dry = http.send("POST", "/clusters/prod-1/api/v1/namespaces/team-a/configmaps?dryRun=All",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"dry-marker\"}}",
                "Authorization", "Bearer " + valid, "Content-Type", "application/json");
        HttpResponse<String> real = get("/clusters/prod-1/api/v1/namespaces/team-a/configmaps", valid);
        String dryId = dry.headers().firstValue("Audit-ID").orElseThrow();
        String realId = real.headers().firstValue("Audit-ID").orElseThrow();

        assertThat(auditRow(dryId).get("dry_run").asBoolean()).isTrue();
        assertThat(auditRow(dryId).get("verb").asText()).isEqualTo("create");
        assertThat(auditRow(realId).get("dry_run").asBoolean()).isFalse();
        assertThat(JSON.readTree(http.get("/api/audit?dry_run=true", "Cookie", admin).body()).get("events")
                .findValuesAsText("id")).contains(dryId).doesNotContain(realId);
        assertThat(JSON.readTree(http.get("/api/audit?dry_run=false", "Cookie", admin).body()).get("events")
                .findValuesAsText("id")).doesNotContain(dryId);
        assertThat(http.get("/api/audit?dry_run=yes", "Cookie", admin).statusCode()).isEqualTo(400);
    }

    /** The agent-safety review: kubectl's GET reached the cluster with an empty chunked body. */
    @Test
    void aRequestWithoutABodyIsForwardedWithoutOneAndAChunkedOneStaysChunked() throws Exception {
        raw("/clusters/prod-1/api/v1/namespaces/team-a/configmaps/framing-marker");

        assertThat(cluster.requests()).filteredOn(request -> request.path().endsWith("framing-marker"))
                .singleElement()
                .satisfies(request -> {
                    assertThat(request.header("transfer-encoding")).isEmpty();
                    assertThat(request.header("content-length").orElse("0")).isEqualTo("0");
                });
        try (Socket socket = new Socket("127.0.0.1", klave.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /clusters/prod-1/api/v1/namespaces/team-a/configmaps HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nAuthorization: Bearer " + valid + "\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + "2\r\n{}\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            socket.getInputStream().readAllBytes();
        }
        assertThat(cluster.requests()).filteredOn(request -> request.method().equals("POST")
                && request.path().endsWith("/configmaps")).last()
                .satisfies(request -> assertThat(request.header("transfer-encoding")).contains("chunked"));
    }

    @Test
    void clusterSegmentsThatAreNoClusterIdsAre400AndBareClustersIs404() throws Exception {
        assertThat(raw("/clusters/Prod_1/api")).startsWith("HTTP/1.1 400")
                .contains("\"message\":\"identificador de cluster no válido: Prod_1\"");
        assertThat(raw("/clusters")).startsWith("HTTP/1.1 404").contains("\"message\":\"cluster desconocido\"");
    }

    @Test
    void cookiesAndClientAuthorizationNeverReachTheCluster() throws Exception {
        raw("/clusters/prod-1/api/v1/namespaces/team-a/configmaps/cookie-marker",
                "Cookie: service_session=abc\r\nX-Forwarded-For: 6.6.6.6\r\nConnection: close\r\n"
                        + "Connection: Authorization\r\n");

        assertThat(cluster.requests()).filteredOn(request -> request.path().contains("cookie-marker"))
                .singleElement()
                .satisfies(request -> {
                    assertThat(request.header("Cookie")).isEmpty();
                    assertThat(request.header("X-Forwarded-For")).isEmpty();
                    assertThat(request.header("Authorization")).contains("Bearer " + cluster.proxyToken());
                    assertThat(request.header("Impersonate-User")).contains("user:ana");
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"X-Remote-User", "x-remote-group", "X-Remote-Extra-Scopes", "X-REMOTE-UID"})
    void frontProxyIdentityHeadersNeverReachTheCluster(String header) throws Exception {
        raw("/clusters/prod-1/api/v1/namespaces/team-a/configmaps/remote-" + header.toLowerCase(java.util.Locale.ROOT),
                header + ": system:admin\r\nConnection: close\r\n");

        assertThat(cluster.requests())
                .filteredOn(request -> request.path().endsWith("remote-" + header.toLowerCase(java.util.Locale.ROOT)))
                .singleElement()
                .satisfies(request -> {
                    assertThat(request.header(header)).isEmpty();
                    assertThat(request.header("Impersonate-User")).contains("user:ana");
                });
    }

    private JsonNode auditRow(String auditId) throws IOException {
        HttpResponse<String> row = http.get("/api/audit/" + auditId, "Cookie", admin);
        assertThat(row.statusCode()).as("row %s: %s", auditId, row.body()).isEqualTo(200);
        return JSON.readTree(row.body());
    }

    private static String auditIdOf(String rawAnswer) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("(?mi)^audit-id: (\\S+)\\r?$")
                .matcher(rawAnswer);
        assertThat(matcher.find()).as(rawAnswer).isTrue();
        return matcher.group(1);
    }

    @Test
    void aKubectlAsProbeWithAValidCredentialIsRecordedAsThatCredentials() throws Exception {
        HttpResponse<String> response = get("/clusters/prod-1/api/v1/namespaces/team-a/pods/probe-marker", valid,
                "Impersonate-User", "system:admin");

        JsonNode row = auditRow(response.headers().firstValue("Audit-ID").orElseThrow());
        assertThat(row.get("status").asInt()).isEqualTo(400);
        assertThat(row.get("error").asText())
                .isEqualTo("Klave no admite cabeceras Impersonate-* (kubectl --as no está soportado)");
        assertThat(row.get("credential").asText()).isEqualTo(validId);
        assertThat(row.get("subject_id").isTextual()).isTrue();
        assertThat(row.get("subject").asText()).as("spec 1 §2: the row names its subject").isEqualTo("ana");
        assertThat(row.get("cluster").asText()).isEqualTo("prod-1");
        assertThat(reached("probe-marker")).isFalse();
    }

    @Test
    void aCredentialRefusedAtTheClusterLeavesARowNamingItsOwner() throws Exception {
        HttpResponse<String> response = get("/clusters/prod-1/api/v1/namespaces/team-a/pods/owner-marker", noGrantHere);

        JsonNode row = auditRow(response.headers().firstValue("Audit-ID").orElseThrow());
        assertThat(row.get("status").asInt()).isEqualTo(403);
        assertThat(row.get("subject").asText()).isEqualTo("bob");
    }

    @Test
    void pathAndClusterIdRefusalsHaveTheRowTheirAuditIdNames() throws Exception {
        String badPath = raw("/clusters/prod-1/api/../v1/row-marker");
        String badCluster = raw("/clusters/Prod_1/api/v1/row-marker");
        String bare = raw("/clusters");

        JsonNode pathRow = auditRow(auditIdOf(badPath));
        assertThat(pathRow.get("status").asInt()).isEqualTo(400);
        assertThat(pathRow.get("error").asText()).startsWith("ruta no válida");
        assertThat(pathRow.get("credential").asText()).isEqualTo(validId);
        JsonNode clusterRow = auditRow(auditIdOf(badCluster));
        assertThat(clusterRow.get("error").asText()).isEqualTo("identificador de cluster no válido: Prod_1");
        assertThat(clusterRow.get("cluster").asText()).isEmpty();
        assertThat(auditRow(auditIdOf(bare)).get("status").asInt()).isEqualTo(404);
        assertThat(reached("row-marker")).isFalse();
    }

    /** Method names are case-sensitive (RFC 9110 §9.1): only the seven the Kubernetes API serves pass. */
    @ParameterizedTest
    @ValueSource(strings = {"CONNECT", "TRACE", "trace", "connect", "TRACK", "DEBUG", "PROPFIND", "get", "Delete"})
    void methodsTheKubernetesApiDoesNotServeAre405AndNeverForwarded(String method) throws Exception {
        String answer;
        try (Socket socket = new Socket("127.0.0.1", klave.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((method + " /clusters/prod-1/api/v1/namespaces/team-a/pods/method-marker "
                    + "HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + valid + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }

        assertThat(answer).startsWith("HTTP/1.1 405 ")
                .containsIgnoringCase("allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")
                .contains("\"kind\":\"Status\"").contains("\"message\":\"método no permitido\"")
                .contains("\"reason\":\"MethodNotAllowed\"");
        assertThat(reached("method-marker")).isFalse();
        assertThat(auditRow(auditIdOf(answer)).get("verb").asText()).isEqualTo(method.toLowerCase(java.util.Locale.ROOT));
    }

    /** A request written byte for byte, so the target reaches Klave exactly as given. */
    private String raw(String target) throws IOException {
        return raw(target, "Connection: close\r\n");
    }

    private String raw(String target, String headers) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", klave.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + valid
                    + "\r\n" + headers + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
