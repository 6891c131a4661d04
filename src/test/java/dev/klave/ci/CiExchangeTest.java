package dev.klave.ci;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.jwk.RSAKey;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.Kubectl;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingActionsIssuer;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingTls;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The CI exchange end to end (spec 1 §4 "CI and forge"): Actions-shaped tokens from a
 * real OIDC issuer in the test JVM, exchanged at {@code /v1/ci/forge-actions/token} for a bot
 * credential that the real kubectl then uses through the proxy; every 401 cause, every 403 text,
 * the unspent token after a 403, and the per-address limit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CiExchangeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ROUTE = "/v1/ci/forge-actions/token";
    private static final AtomicInteger ADDRESSES = new AtomicInteger();

    private final TestingClock clock = new TestingClock(Instant.now());
    private ClusterSimulator cluster;
    private TestingActionsIssuer issuer;
    private TestingKlave klave;
    private TestingHttp http;
    private String baseUrl;
    private String admin;
    private String deployerId;

    @BeforeAll
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n"
                + "    pod-security.kubernetes.io/enforce: baseline\n");
        cluster.objects().put("apiVersion: v1\nkind: Pod\nmetadata:\n  name: api-0\n  namespace: team-a\n"
                + "spec:\n  containers:\n  - name: api\n    image: nginx\n");
        issuer = TestingActionsIssuer.start(clock);
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        baseUrl = "https://127.0.0.1:" + port;
        TestingTls tls = TestingTls.generate();
        klave = TestingKlave.start(clock, settings -> settings
                .with("SERVICE_LISTEN", "127.0.0.1:" + port)
                .with("SERVICE_BASE_URL", baseUrl)
                .with("SERVICE_TLS_CERT", tls.certificate().toString())
                .with("SERVICE_TLS_KEY", tls.privateKey().toString())
                .with("SERVICE_KUBECONFIG_CA", tls.certificate().toString())
                .with("SERVICE_TRUSTED_PROXIES", "127.0.0.1")
                .with("SERVICE_CI_ISSUER", issuer.issuer()));
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "ci-1");
        deployerId = bot("deployer");
        grant(deployerId, "edit");
        rule("deploy main", deployerId, TestingActionsIssuer.REPOSITORY_ID, "refs/heads/main", "");
        assertThat(http.send("POST", "/api/clusters/ci-1/reconcile", null, "Cookie", admin).statusCode())
                .isIn(200, 409);
        Eventually.until("the edit binding in team-a", Duration.ofSeconds(5),
                () -> cluster.objects().get("rolebindings", "team-a", "klave-edit").isPresent());
    }

    @AfterAll
    void stop() {
        klave.close();
        issuer.close();
        cluster.close();
    }

    private String bot(String login) throws Exception {
        HttpResponse<String> created = http.send("POST", "/api/subjects",
                "{\"kind\":\"bot\",\"login\":\"" + login + "\"}", "Cookie", admin);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body()).get("id").asText();
    }

    private void grant(String subjectId, String tier) {
        HttpResponse<String> granted = http.send("POST", "/api/grants", "{\"subject_id\":\"" + subjectId
                + "\",\"cluster_id\":\"ci-1\",\"tier\":\"" + tier + "\",\"scope\":\"team-a\"}", "Cookie", admin);
        assertThat(granted.statusCode()).as(granted.body()).isEqualTo(201);
    }

    private String rule(String name, String botId, long repositoryId, String ref, String environment)
            throws Exception {
        HttpResponse<String> created = http.send("POST", "/api/ci/trust-rules", "{\"name\":\"" + name
                + "\",\"bot_subject_id\":\"" + botId + "\",\"repository_owner_id\":" + TestingActionsIssuer.OWNER_ID
                + ",\"repository_id\":\"" + repositoryId + "\",\"ref\":\"" + ref + "\",\"environment\":\""
                + environment + "\"}", "Cookie", admin);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body()).get("id").asText();
    }

    private Map<String, Object> claims(Consumer<Map<String, Object>> change) {
        Map<String, Object> claims = issuer.claims(baseUrl);
        change.accept(claims);
        return claims;
    }

    /** Each exchange from an address of its own, so the per-address limit only bites where tested. */
    private HttpResponse<String> exchange(String token) {
        return exchangeFrom("10.9.0." + (ADDRESSES.incrementAndGet() % 250 + 1), token);
    }

    private HttpResponse<String> exchangeFrom(String address, String token) {
        ObjectNode body = JSON.createObjectNode().put("token", token);
        return http.send("POST", ROUTE, body.toString(), "X-Forwarded-For", address,
                "Content-Type", "application/json");
    }

    private JsonNode latestFailure() throws Exception {
        for (JsonNode event : JSON.readTree(http.get("/api/control-events", "Cookie", admin).body()).get("events")) {
            if (event.get("type").asText().equals("ci.exchange.failure")) {
                return event;
            }
        }
        throw new AssertionError("no ci.exchange.failure event");
    }

    private void assertInvalid(String token, String reason) throws Exception {
        HttpResponse<String> refused = exchange(token);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(401);
        assertThat(JSON.readTree(refused.body()).get("error").asText()).isEqualTo("token no válido");
        assertThat(latestFailure().get("reason").asText()).contains(reason);
    }

    @Test
    void exchangedCredentialWorksWithKubectlThroughTheProxyAsTheBot() throws Exception {
        Map<String, Object> claims = issuer.claims(baseUrl);

        HttpResponse<String> exchanged = exchange(issuer.sign(claims));

        assertThat(exchanged.statusCode()).as(exchanged.body()).isEqualTo(201);
        assertThat(exchanged.headers().firstValue("Cache-Control")).contains("no-store");
        JsonNode body = JSON.readTree(exchanged.body());
        assertThat(body.get("token").asText()).startsWith("klt_");
        assertThat(body.get("clusters")).extracting(JsonNode::asText).containsExactly("ci-1");
        assertThat(body.get("credential").get("name").asText()).isEqualTo("forge-actions");
        assertThat(body.get("credential").get("note").asText())
                .isEqualTo("acme/deploy@refs/heads/main · run " + claims.get("run_id") + " · octo-dev");
        assertThat(body.get("credential").get("subject_login").asText()).isEqualTo("deployer");
        assertThat(Instant.parse(body.get("expires_at").asText())).isEqualTo(clock.instant().plus(Duration.ofHours(1)));
        try (Kubectl kubectl = new Kubectl(body.get("kubeconfig").asText())) {
            Kubectl.Result pods = kubectl.run("get", "pods", "-n", "team-a");
            assertThat(pods.exitCode()).as(pods.output()).isZero();
            assertThat(pods.stdout()).contains("api-0");
        }
        assertThat(cluster.requests()).anyMatch(request ->
                request.header("Impersonate-User").equals(java.util.Optional.of("bot:deployer"))
                        && request.path().startsWith("/api/v1/namespaces/team-a/pods"));
        JsonNode rows = JSON.readTree(http.get("/api/audit?cluster=ci-1&resource=pods", "Cookie", admin).body())
                .get("events");
        assertThat(rows).anyMatch(row -> row.get("subject").asText().equals("deployer")
                && row.get("credential").asText().equals(body.get("credential").get("id").asText()));
    }

    @Test
    void tokenIsExchangedOnlyOnce() throws Exception {
        String token = issuer.sign(issuer.claims(baseUrl));
        assertThat(exchange(token).statusCode()).isEqualTo(201);

        assertInvalid(token, "already exchanged");
    }

    @Test
    void tokenSignedByAnotherKeyUnderTheIssuersKidIsRefused() throws Exception {
        RSAKey impostor = TestingActionsIssuer.newKey(TestingActionsIssuer.ISSUER_ID);

        assertInvalid(TestingActionsIssuer.sign(issuer.claims(baseUrl), impostor), "bad signature");
    }

    @Test
    void tokenWithATamperedClaimIsRefused() throws Exception {
        String token = issuer.sign(issuer.claims(baseUrl));
        String[] parts = token.split("\\.");
        String forged = com.nimbusds.jose.util.Base64URL.encode(new String(
                com.nimbusds.jose.util.Base64URL.from(parts[1]).decode(), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"actor\":\"octo-dev\"", "\"actor\":\"octo-adm\"")).toString();

        assertInvalid(parts[0] + "." + forged + "." + parts[2], "bad signature");
    }

    @Test
    void tokenOfAnotherIssuerIsRefused() throws Exception {
        assertInvalid(issuer.sign(claims(c -> c.put("iss", issuer.otherIssuer()))), "issuer");
    }

    @Test
    void audienceDifferingByATrailingSlashIsRefused() throws Exception {
        assertInvalid(issuer.sign(claims(c -> c.put("aud", baseUrl + "/"))), "audience");
    }

    /** Spec 1: the audience equals the base URL; a list naming others too is another party's token as well. */
    @Test
    void audienceListingAnotherPartyIsRefused() throws Exception {
        assertInvalid(issuer.sign(claims(c -> c.put("aud", List.of(baseUrl, "https://other.example")))), "audience");
    }

    @Test
    void tokenIssuedInTheFutureBeyondTheSkewIsRefused() throws Exception {
        assertInvalid(issuer.sign(claims(c -> {
            c.put("iat", clock.instant().plus(Duration.ofMinutes(10)));
            c.put("exp", clock.instant().plus(Duration.ofMinutes(15)));
        })), "future");
    }

    @Test
    void expiredTokenIsRefused() throws Exception {
        assertInvalid(issuer.sign(claims(c -> {
            c.put("iat", clock.instant().minus(Duration.ofMinutes(20)));
            c.put("nbf", clock.instant().minus(Duration.ofMinutes(20)));
            c.put("exp", clock.instant().minus(Duration.ofMinutes(5)));
        })), "expired");
    }

    @Test
    void hs256TokenIsRefused() throws Exception {
        assertInvalid(issuer.signHs256(issuer.claims(baseUrl)), "algorithm HS256");
    }

    @Test
    void unsecuredTokenIsRefused() throws Exception {
        assertInvalid(TestingActionsIssuer.unsigned(issuer.claims(baseUrl)), "not a signed JWT");
    }

    @Test
    void garbageAndMissingTokensAreRefused() throws Exception {
        assertInvalid("not-a-jwt", "not a signed JWT");
        HttpResponse<String> empty = http.send("POST", ROUTE, "{}", "X-Forwarded-For", "10.9.1.1");
        assertThat(empty.statusCode()).isEqualTo(401);
        assertThat(latestFailure().get("reason").asText()).isEqualTo("no token in the body");
    }

    @Test
    void noMatchingRuleNamesTheClaimValues() throws Exception {
        HttpResponse<String> refused = exchange(issuer.sign(claims(c -> {
            c.put("repository_id", "999");
            c.put("ref", "refs/heads/feature");
            c.put("environment", "staging");
        })));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(refused.body()).get("error").asText()).isEqualTo("ninguna trust rule coincide con "
                + "este workflow (repository_owner_id=" + TestingActionsIssuer.OWNER_ID + " repository_id=999 "
                + "ref=refs/heads/feature environment=staging): pide a un administrador una trust rule para este "
                + "repositorio, ref y environment");
        assertThat(latestFailure().get("reason").asText()).startsWith("ninguna trust rule coincide");
    }

    @Test
    void ruleWithAnEnvironmentRefusesAJobThatDeclaresNone() throws Exception {
        String botId = bot("prod-deployer");
        grant(botId, "view");
        rule("prod only", botId, 7_300_001L, "", "production");

        HttpResponse<String> refused = exchange(issuer.sign(claims(c -> c.put("repository_id", "7300001"))));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(refused.body()).get("error").asText())
                .contains("repository_id=7300001 ref=refs/heads/main environment=)");
        HttpResponse<String> declared = exchange(issuer.sign(claims(c -> {
            c.put("repository_id", "7300001");
            c.put("environment", "production");
        })));
        assertThat(declared.statusCode()).as(declared.body()).isEqualTo(201);
    }

    @Test
    void disabledBotIsNamedWithItsRule() throws Exception {
        String botId = bot("old-deployer");
        grant(botId, "view");
        rule("legacy", botId, 7_300_002L, "", "");
        assertThat(http.send("POST", "/api/subjects/" + botId + "/disable", null, "Cookie", admin).statusCode())
                .isEqualTo(200);

        HttpResponse<String> refused = exchange(issuer.sign(claims(c -> c.put("repository_id", "7300002"))));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(refused.body()).get("error").asText())
                .isEqualTo("el bot old-deployer de la trust rule «legacy» está deshabilitado");
    }

    @Test
    void refusedTokenStaysUsableOnceTheConfigurationIsFixed() throws Exception {
        String botId = bot("new-deployer");
        rule("new service", botId, 7_300_003L, "refs/heads/main", "");
        String token = issuer.sign(claims(c -> c.put("repository_id", "7300003")));

        HttpResponse<String> refused = exchange(token);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(refused.body()).get("error").asText()).isEqualTo(
                "el bot new-deployer no tiene permisos activos en ningún cluster: "
                        + "pide a un administrador que le conceda un permiso");

        grant(botId, "view");
        HttpResponse<String> exchanged = exchange(token);
        assertThat(exchanged.statusCode()).as(exchanged.body()).isEqualTo(201);
        assertThat(JSON.readTree(exchanged.body()).get("credential").get("subject_login").asText())
                .isEqualTo("new-deployer");
    }

    @Test
    void tokenRefusedForWantOfARuleWorksOnceTheRuleExists() throws Exception {
        String token = issuer.sign(claims(c -> c.put("repository_id", "7300004")));
        assertThat(exchange(token).statusCode()).isEqualTo(403);

        rule("late rule", deployerId, 7_300_004L, "", "");

        assertThat(exchange(token).statusCode()).isEqualTo(201);
    }

    @Test
    void sixtyExchangesPerMinuteFromOneAddress() throws Exception {
        String address = "10.9.200.1";
        for (int i = 0; i < CiExchange.REQUESTS_PER_MINUTE; i++) {
            assertThat(exchangeFrom(address, "garbage").statusCode()).isEqualTo(401);
        }

        HttpResponse<String> limited = exchangeFrom(address, issuer.sign(issuer.claims(baseUrl)));

        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(JSON.readTree(limited.body()).get("error").asText()).isEqualTo("demasiados intentos");
        assertThat(exchangeFrom("10.9.200.2", issuer.sign(issuer.claims(baseUrl))).statusCode()).isEqualTo(201);
    }

    @Test
    void exchangeTakesOnlyPostAndNeedsNoOriginNorSession() throws Exception {
        HttpResponse<String> get = http.get(ROUTE);
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).contains("POST");

        HttpResponse<String> fromBrowser = http.send("POST", ROUTE,
                JSON.createObjectNode().put("token", issuer.sign(issuer.claims(baseUrl))).toString(),
                "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site", "X-Forwarded-For", "10.9.3.1");
        assertThat(fromBrowser.statusCode()).as(fromBrowser.body()).isEqualTo(201);
    }

    @Test
    void malformedBodiesAreBadRequests() throws Exception {
        for (String body : new String[] {"not json", "[]", "{\"token\":1}"}) {
            HttpResponse<String> refused = http.send("POST", ROUTE, body, "X-Forwarded-For", "10.9.4.1");
            assertThat(refused.statusCode()).as(body).isEqualTo(400);
            assertThat(JSON.readTree(refused.body()).get("error").asText()).isEqualTo("cuerpo JSON no válido");
        }
        HttpResponse<String> extra = http.send("POST", ROUTE, "{\"token\":\"x\",\"extra\":true}",
                "X-Forwarded-For", "10.9.4.1");
        assertThat(extra.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(extra.body()).get("error").asText())
                .isEqualTo("cuerpo JSON no válido: campo desconocido «extra»");
    }

    @Test
    void trustRuleListTellsAWorkflowWhatToUse() throws Exception {
        HttpResponse<String> listed = http.get("/api/ci/trust-rules", "Cookie", admin);

        assertThat(listed.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(listed.body());
        assertThat(body.get("audience").asText()).isEqualTo(baseUrl);
        assertThat(body.get("issuer").asText()).isEqualTo(issuer.issuer());
        assertThat(body.get("token_lifetime").asText()).isEqualTo("1h");
        assertThat(body.get("exchange_route").asText()).isEqualTo(ROUTE);
        assertThat(body.get("exchange_url").asText()).isEqualTo(baseUrl + ROUTE);
        assertThat(body.get("rules")).anyMatch(rule -> rule.get("name").asText().equals("deploy main")
                && rule.get("bot_login").asText().equals("deployer")
                && rule.get("repository_owner_id").asLong() == TestingActionsIssuer.OWNER_ID
                && rule.get("repository_id").asLong() == TestingActionsIssuer.REPOSITORY_ID
                && rule.get("ref").asText().equals("refs/heads/main")
                && rule.get("environment").asText().isEmpty());
    }

    @Test
    void trustRulesAreForAdministratorsOnly() {
        String person = TestingPeople.signUp(klave, "maria", false);

        assertThat(http.get("/api/ci/trust-rules", "Cookie", person).statusCode()).isEqualTo(403);
        assertThat(http.get("/api/ci/trust-rules").statusCode()).isEqualTo(401);
        assertThat(http.send("DELETE", "/api/ci/trust-rules/x", null, "Cookie", person).statusCode()).isEqualTo(403);
    }

    @Test
    void trustRuleNeedsABotAndNumericIds() throws Exception {
        String personId = JSON.readTree(http.get("/api/me", "Cookie", admin).body()).get("id").asText();
        assertRuleRefused("{\"name\":\"x\",\"bot_subject_id\":\"" + personId
                + "\",\"repository_owner_id\":1,\"repository_id\":2}",
                "bot_subject_id debe ser un bot: las trust rules solo emiten credenciales de bots");
        assertRuleRefused("{\"name\":\"x\",\"bot_subject_id\":\"" + deployerId
                + "\",\"repository_owner_id\":\"acme\",\"repository_id\":2}",
                "repository_owner_id no válido: usa el id numérico del propietario o del repositorio en Forge, "
                        + "no su nombre");
        assertRuleRefused("{\"name\":\"x\",\"bot_subject_id\":\"" + deployerId
                + "\",\"repository_owner_id\":1,\"repository_id\":-2}",
                "repository_id no válido: usa el id numérico del propietario o del repositorio en Forge, "
                        + "no su nombre");
        assertRuleRefused("{\"name\":\"\",\"bot_subject_id\":\"" + deployerId
                + "\",\"repository_owner_id\":1,\"repository_id\":2}",
                "nombre de trust rule no válido: de 1 a 200 caracteres");
        assertRuleRefused("{\"name\":\"x\",\"bot_subject_id\":\"nobody\",\"repository_owner_id\":1,"
                + "\"repository_id\":2}", "falta bot_subject_id o no existe ese usuario");
    }

    @Test
    void aRefThatIsNotFullIsRefusedWithItsFullForm() throws Exception {
        String rule = "{\"name\":\"short ref\",\"bot_subject_id\":\"" + deployerId
                + "\",\"repository_owner_id\":1,\"repository_id\":2,\"ref\":\"%s\"}";

        // Spec 1 §4 "CI exchange rules" 2: the ref claim is always refs/…, so "main" could never match.
        assertRuleRefused(rule.formatted("main"), "ref no válido: usa la forma completa, p. ej. refs/heads/main");
        assertRuleRefused(rule.formatted("heads/release"),
                "ref no válido: usa la forma completa, p. ej. refs/heads/release");
        assertRuleRefused(rule.formatted("tags/v1.2"), "ref no válido: usa la forma completa, p. ej. refs/tags/v1.2");
        assertRuleRefused(rule.formatted("main\\n\\u001b[31m"),
                "ref no válido: usa la forma completa, p. ej. refs/heads/main\\n\\u001b[31m");
    }

    @Test
    void anIdenticalRuleIsRefusedNamingTheOneThatExists() throws Exception {
        String botId = bot("twin-deployer");
        rule("original", botId, 7_300_006L, "refs/heads/main", "production");

        // Same bot, repository, ref and environment under another name: it could never be the one used.
        assertRuleRefused(409, "{\"name\":\"copia\",\"bot_subject_id\":\"" + botId
                + "\",\"repository_owner_id\":\"" + TestingActionsIssuer.OWNER_ID
                + "\",\"repository_id\":7300006,\"ref\":\" refs/heads/main \",\"environment\":\"production\"}",
                "ya hay una trust rule igual: «original»");

        rule("other environment", botId, 7_300_006L, "refs/heads/main", "staging");
        rule("any environment", botId, 7_300_006L, "refs/heads/main", "");
        rule("other ref", botId, 7_300_006L, "refs/tags/v1", "production");
    }

    private void assertRuleRefused(String body, String message) throws Exception {
        assertRuleRefused(400, body, message);
    }

    private void assertRuleRefused(int status, String body, String message) throws Exception {
        int before = JSON.readTree(http.get("/api/ci/trust-rules", "Cookie", admin).body()).get("rules").size();
        HttpResponse<String> refused = http.send("POST", "/api/ci/trust-rules", body, "Cookie", admin);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(status);
        assertThat(JSON.readTree(refused.body()).get("error").asText()).isEqualTo(message);
        assertThat(JSON.readTree(http.get("/api/ci/trust-rules", "Cookie", admin).body()).get("rules").size())
                .isEqualTo(before);
    }

    @Test
    void deletingARuleStopsExchangesButKeepsIssuedCredentials() throws Exception {
        String ruleId = rule("short lived", deployerId, 7_300_005L, "", "");
        HttpResponse<String> exchanged = exchange(issuer.sign(claims(c -> c.put("repository_id", "7300005"))));
        assertThat(exchanged.statusCode()).isEqualTo(201);
        String credentialId = JSON.readTree(exchanged.body()).get("credential").get("id").asText();

        assertThat(http.send("DELETE", "/api/ci/trust-rules/" + ruleId, null, "Cookie", admin).statusCode())
                .isEqualTo(204);

        assertThat(http.send("DELETE", "/api/ci/trust-rules/" + ruleId, null, "Cookie", admin).statusCode())
                .isEqualTo(404);
        assertThat(exchange(issuer.sign(claims(c -> c.put("repository_id", "7300005")))).statusCode())
                .isEqualTo(403);
        JsonNode credentials = JSON.readTree(http.get("/api/credentials", "Cookie", admin).body());
        assertThat(credentials).anyMatch(credential -> credential.get("id").asText().equals(credentialId)
                && credential.get("status").asText().equals("active"));
    }
}
