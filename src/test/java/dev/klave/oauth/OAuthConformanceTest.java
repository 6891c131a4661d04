package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingDatabase;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The MCP conformance suite's authorization-server scenarios (0.2.0-alpha.12 on Node 22,
 * {@code conformance authorization}) against Klave's OAuth 2.1 server (spec 3 §4 "Agent login"):
 * {@code authorization-server-metadata-endpoint} reads the RFC 8414 document and checks issuer,
 * endpoints, {@code response_types_supported}, S256 and client ID metadata document support;
 * {@code authorization-code-grant} prints an authorization URL for a person to open with a client
 * registered beforehand, waits at {@code http://127.0.0.1:<port>/callback} for the answer, checks
 * its code, state and iss, and exchanges the code with PKCE at the token endpoint. Klave needs a
 * person to consent, so the test is that person: a {@link ConsentingBrowser} with a real signed-in
 * session and a grant opens the printed URL and approves on the consent page's API. Every check
 * must pass (the suite has no expected-failures file for these scenarios, and none is needed).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OAuthConformanceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PERMISSIONS = "[{\"cluster\":\"prod-1\",\"role\":\"view\",\"scope\":\"*\"}]";

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private String base;
    private ConsentingBrowser ana;

    @BeforeAll
    void start() throws IOException {
        NodeProcess.requireInstalled();
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.startAtOwnAddress(new TestingClock(), settings -> settings);
        base = "http://127.0.0.1:" + klave.port();
        TestingHttp http = klave.http();
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        String session = TestingPeople.signUp(klave, "ana", false);
        String anaId = JSON.readTree(http.get("/api/me", "Cookie", session).body()).path("id").asText();
        assertThat(http.send("POST", "/api/grants", "{\"subject_id\":\"" + anaId + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin).statusCode()).isEqualTo(201);
        ana = new ConsentingBrowser(base, session);
    }

    @AfterAll
    void stop() {
        if (klave != null) {
            klave.close();
            cluster.close();
        }
    }

    /** What one run of both scenarios left: the browser's visit, the exit code and the checks by scenario. */
    private record Run(ConsentingBrowser.Visit visit, int exit, Map<String, List<JsonNode>> checks, String output) {}

    /** Runs the suite's authorization scenarios with a client registered for its callback; {@code person} decides. */
    private Run run(java.util.function.Function<String, ConsentingBrowser.Visit> person) throws IOException {
        int port = NodeProcess.freePort();
        String clientId = JSON.readTree(klave.http().send("POST", "/oauth/register", "{\"redirect_uris\":"
                + "[\"http://127.0.0.1:" + port + "/callback\"],\"client_name\":\"MCP conformance\"}",
                "Content-Type", "application/json").body()).path("client_id").asText();
        Path results = Files.createTempDirectory("klave-oauth-conformance-");
        try (NodeProcess suite = NodeProcess.start(Map.of(), List.of("node_modules/conformance-next/dist/index.js",
                "authorization", "--url", base, "--client-id", clientId, "--resource", base + "/mcp",
                "--port", String.valueOf(port), "--output-dir", results.toString()))) {
            String url = suite.await("the authorization URL", Pattern.compile("^(" + Pattern.quote(base)
                    + "/oauth/authorize\\?\\S+)$"), Duration.ofSeconds(30));
            suite.await("the callback listener", Pattern.compile("^(Callback server started)"), Duration.ofSeconds(10));
            ConsentingBrowser.Visit visit = person.apply(url);
            int exit = suite.exit(Duration.ofSeconds(30));
            return new Run(visit, exit, checks(results), suite.toString());
        } finally {
            TestingDatabase.deleteTree(results);
        }
    }

    /** The checks each scenario saved ({@code <scenario>-<time>/checks.json} under the output folder). */
    private static Map<String, List<JsonNode>> checks(Path results) throws IOException {
        Map<String, List<JsonNode>> byScenario = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(results)) {
            for (Path file : files.filter(path -> path.getFileName().toString().equals("checks.json")).sorted()
                    .toList()) {
                String scenario = file.getParent().getFileName().toString()
                        .replaceFirst("^authorization-server-", "").replaceFirst("-\\d{4}-\\d\\d-\\d\\dT.*$", "");
                byScenario.put(scenario, JSON.readValue(file.toFile(),
                        JSON.getTypeFactory().constructCollectionType(List.class, JsonNode.class)));
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return byScenario;
    }

    private static List<String> statuses(List<JsonNode> checks) {
        return checks.stream().map(check -> check.path("id").asText() + " " + check.path("status").asText()
                + (check.hasNonNull("errorMessage") ? " " + check.path("errorMessage").asText() : "")).toList();
    }

    @Test
    void bothAuthorizationServerScenariosPassWhenThePersonApproves() throws IOException {
        Run run = run(url -> ana.approve(url, PERMISSIONS));

        assertThat(run.visit().consent().path("client").path("name").asText()).isEqualTo("MCP conformance");
        assertThat(run.visit().consent().path("redirect_is_loopback").asBoolean()).isTrue();
        assertThat(run.visit().callback().statusCode()).isEqualTo(200);
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.checks()).as(run.output()).containsOnlyKeys("authorization-server-metadata-endpoint",
                "authorization-code-grant");
        assertThat(statuses(run.checks().get("authorization-server-metadata-endpoint"))).as(run.output())
                .containsExactly("authorization-server-metadata SUCCESS", "authorization-server-metadata-cimd SUCCESS");
        assertThat(statuses(run.checks().get("authorization-code-grant"))).as(run.output())
                .containsExactly("authorization-code-grant SUCCESS");
    }

    @Test
    void theCodeGrantNeedsThePersonsConsentADenialFailsIt() throws IOException {
        Run run = run(ana::deny);

        assertThat(run.visit().redirect()).contains("error=access_denied").doesNotContain("code=");
        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        assertThat(statuses(run.checks().get("authorization-code-grant"))).as(run.output()).singleElement()
                .asString().startsWith("authorization-code-grant FAILURE Authorization error: access_denied");
    }
}
