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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The MCP Inspector (CLI 2.12.0, {@code src/test/mcp-clients}) logs in to Klave with its own OAuth
 * code (spec 3 §4 "Agent login"): the 401 of {@code /mcp} and its {@code resource_metadata} →
 * the protected-resource document → the authorization server's → dynamic registration →
 * {@code /oauth/authorize}, printed for a person to open while it listens on its loopback
 * callback → the code (with state and iss) exchanged with PKCE → {@code /mcp} again with the
 * access token. The test is the person ({@link ConsentingBrowser}: a real signed-in session and
 * a grant, deciding on the consent page's API). {@code MCP_AUTO_OPEN_ENABLED=true} is the
 * Inspector's own switch for an interactive login without a terminal; its secrets go to a file
 * in a home of the test's own, where the tokens it obtained are read.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InspectorOAuthTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestingClock clock = new TestingClock();
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private String base;
    private ConsentingBrowser ana;
    private Path home;

    @BeforeAll
    void start() throws IOException {
        NodeProcess.requireInstalled();
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.startAtOwnAddress(clock, settings -> settings);
        base = "http://127.0.0.1:" + klave.port();
        TestingHttp http = klave.http();
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        String session = TestingPeople.signUp(klave, "ana", false);
        String anaId = JSON.readTree(http.get("/api/me", "Cookie", session).body()).path("id").asText();
        assertThat(http.send("POST", "/api/grants", "{\"subject_id\":\"" + anaId + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin).statusCode()).isEqualTo(201);
        ana = new ConsentingBrowser(base, session);
        home = Files.createTempDirectory("klave-inspector-home-");
    }

    @AfterAll
    void stop() {
        if (klave != null) {
            klave.close();
            cluster.close();
        }
        if (home != null) {
            TestingDatabase.deleteTree(home);
        }
    }

    /** The Inspector CLI against {@code /mcp} with its OAuth state and secrets under the test's home. */
    private NodeProcess inspector(int callbackPort, String... more) {
        List<String> arguments = new ArrayList<>(List.of("node_modules/.bin/mcp-inspector", "--cli", base + "/mcp",
                "--transport", "http", "--callback-url", "http://127.0.0.1:" + callbackPort + "/oauth/callback",
                "--format", "json", "-q"));
        arguments.addAll(List.of(more));
        return NodeProcess.start(Map.of("HOME", home.toString(), "MCP_INSPECTOR_SECRET_STORE", "file",
                "MCP_AUTO_OPEN_ENABLED", "true"), arguments);
    }

    /** The tokens the Inspector keeps for Klave (its file secret store: one entry per server and issuer). */
    private JsonNode storedTokens() throws IOException {
        JsonNode secrets = JSON.readTree(home.resolve(".mcp-inspector/secrets.json").toFile()).path("secrets");
        List<JsonNode> tokens = new ArrayList<>();
        secrets.properties().forEach(entry -> {
            if (entry.getKey().endsWith(":tokens:" + base)) {
                tokens.add(read(entry.getValue().asText()));
            }
        });
        assertThat(tokens).as(secrets.toString()).hasSize(1);
        return tokens.getFirst();
    }

    private static JsonNode read(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theInspectorLogsInThroughThePersonsConsentAndUsesItsTokens() throws IOException {
        int callback = NodeProcess.freePort();
        ConsentingBrowser.Visit visit;
        int exit;
        String listed;
        String output;
        try (NodeProcess login = inspector(callback, "--method", "tools/list")) {
            String url = login.await("the Inspector asking someone to log in",
                    Pattern.compile("Please navigate to: (\\S+)"), Duration.ofSeconds(30));
            visit = ana.approve(url, "[{\"cluster\":\"prod-1\",\"role\":\"view\",\"scope\":\"*\"}]");
            exit = login.exit(Duration.ofSeconds(30));
            listed = login.stdout();
            output = login.toString();
        }

        assertThat(visit.consent().path("client").path("name").asText()).isEqualTo("MCP Inspector");
        assertThat(visit.consent().path("redirect_uri").asText())
                .isEqualTo("http://127.0.0.1:" + callback + "/oauth/callback");
        assertThat(visit.redirect()).contains("code=", "state=", "iss=");
        assertThat(visit.callback().statusCode()).isEqualTo(200);
        assertThat(visit.callback().body()).contains("OAuth complete");
        JsonNode tokens = storedTokens();
        assertThat(tokens.path("access_token").asText()).startsWith("klt_");
        assertThat(tokens.path("refresh_token").asText()).startsWith("klr_");
        assertThat(tokens.path("token_type").asText()).isEqualTo("Bearer");
        assertThat(tokens.path("issuer").asText()).isEqualTo(base);
        assertThat(exit).as(output).isZero();
        assertThat(listed).contains("\"whoami\"", "\"list_resources\"");

        // Once logged in, the Inspector needs no person: its stored token is enough.
        try (NodeProcess again = inspector(NodeProcess.freePort(), "--stored-auth-only", "--method", "tools/call",
                "--tool-name", "whoami")) {
            int whoami = again.exit(Duration.ofSeconds(30));

            assertThat(whoami).as(again.toString()).isZero();
            assertThat(again.stdout()).contains("ana");
        }

        // An hour on, the access token has expired: the Inspector refreshes it by itself.
        clock.advance(Duration.ofMinutes(61));
        try (NodeProcess later = inspector(NodeProcess.freePort(), "--stored-auth-only", "--method", "tools/call",
                "--tool-name", "whoami")) {
            int whoami = later.exit(Duration.ofSeconds(30));

            assertThat(whoami).as(later.toString()).isZero();
            assertThat(later.stdout()).contains("ana");
        }
        JsonNode refreshed = storedTokens();
        assertThat(refreshed.path("access_token").asText()).startsWith("klt_")
                .isNotEqualTo(tokens.path("access_token").asText());
        assertThat(refreshed.path("refresh_token").asText()).startsWith("klr_")
                .isNotEqualTo(tokens.path("refresh_token").asText());
    }
}
