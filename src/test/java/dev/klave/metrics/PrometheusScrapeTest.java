package dev.klave.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingForge;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingOidcProvider;
import dev.klave.testing.TestingPeople;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} against the real thing: Debian's {@code promtool} lints a scrape, and Debian's
 * {@code prometheus} (2.42) scrapes a Klave that proxied requests, reconciled a cluster, signed
 * people in, refused a CI exchange, synced the forge and discovered its OIDC provider; every query
 * of the Grafana dashboard ({@code deploy/grafana/klave.json}) then returns data from it. Both
 * binaries are required — their absence fails the test, naming the package.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrometheusScrapeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path PROMETHEUS = Path.of(System.getProperty("klave.prometheus", "/usr/bin/prometheus"));
    private static final Path PROMTOOL = Path.of(System.getProperty("klave.promtool", "/usr/bin/promtool"));
    private static final Path DASHBOARD = Path.of("deploy/grafana/klave.json");
    private static final int PROXIED = 7;

    @TempDir
    Path directory;

    private ClusterSimulator cluster;
    private TestingForge forge;
    private TestingOidcProvider oidc;
    private TestingKlave klave;
    private TestingHttp http;
    private HttpClient client;
    private int metricsPort;

    @BeforeAll
    void start() throws Exception {
        requireBinary(PROMETHEUS);
        requireBinary(PROMTOOL);
        client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        cluster = ClusterSimulator.builder().start();
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n");
        forge = TestingForge.start(Clock.systemUTC());
        oidc = TestingOidcProvider.startOverPlainHttp();
        klave = TestingKlave.startWithForge(Clock.systemUTC(), forge, settings -> {
            oidc.settings().forEach(settings::with);
            return settings.with("SERVICE_METRICS_LISTEN", "127.0.0.1:0");
        });
        http = klave.http();
        metricsPort = klave.klave().metrics().port().orElseThrow();

        // Break-glass: with the forge and OIDC on, only such an account signs in with a password.
        String admin = TestingPeople.signUp(klave, "root", true, true);
        String rootId = JSON.readTree(http.get("/api/me", "Cookie", admin).body()).get("id").asText();
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        HttpResponse<String> granted = http.send("POST", "/api/grants", "{\"subject_id\":\"" + rootId
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"team-a\"}", "Cookie", admin);
        assertThat(granted.statusCode()).as(granted.body()).isEqualTo(201);
        assertThat(http.send("POST", "/api/clusters/prod-1/reconcile", null, "Cookie", admin).statusCode())
                .isIn(200, 409);
        String token = JSON.readTree(http.send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie", admin)
                .body()).get("token").asText();
        Eventually.until("a proxied list answered 200", Duration.ofSeconds(10), () -> http.get(
                "/clusters/prod-1/api/v1/namespaces/team-a/configmaps", "Authorization", "Bearer " + token)
                .statusCode() == 200);
        for (int i = 0; i < PROXIED; i++) {
            assertThat(http.get("/clusters/prod-1/api/v1/namespaces/team-a/configmaps", "Authorization",
                    "Bearer " + token).statusCode()).isEqualTo(200);
        }
        // The agent endpoint: a tool that answers, one that names no resource (the tool's own error), an
        // unknown tool (a JSON-RPC error).
        TestingAgents.Bot bot = TestingAgents.another(klave, cluster, admin, "prod-1", "metrics-agent", "view",
                "team-a");
        assertThat(mcp(bot.token(), "whoami", "{}")).contains("\"isError\":false");
        assertThat(mcp(bot.token(), "get_resource", "{\"cluster\":\"prod-1\",\"namespace\":\"team-a\","
                + "\"kind\":\"ConfigMap\",\"name\":\"no-such-map\"}")).contains("\"isError\":true");
        assertThat(mcp(bot.token(), "no_such_tool", "{}")).contains("\"error\"");
        // Refused before any cluster is established: an unregistered cluster, a bad path.
        assertThat(http.get("/clusters/no-such-cluster/api/v1/pods", "Authorization", "Bearer klt_nothing")
                .statusCode()).isEqualTo(401);
        TestingPeople.signIn(http, "root", TestingPeople.PASSWORD);
        assertThat(TestingPeople.attempt(http, "root", "not the password").statusCode()).isEqualTo(401);
        assertThat(http.send("POST", "/v1/ci/forge-actions/token", "{\"token\":\"not.a.token\"}").statusCode())
                .isEqualTo(401);
        klave.hooks().syncForgeMembers();
        Eventually.until("the OIDC provider discovered", Duration.ofSeconds(10),
                () -> klave.hooks().oidcProvider().orElseThrow().discovered());
    }

    /** One 2025-11-25 {@code tools/call}; its answer's body. */
    private String mcp(String token, String tool, String arguments) {
        HttpResponse<String> answer = http.send("POST", "/mcp", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
                + "\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}}",
                "Authorization", "Bearer " + token, "Content-Type", "application/json", "Accept",
                "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25");
        return answer.body();
    }

    @AfterAll
    void stop() {
        if (klave != null) {
            klave.close();
        }
        if (oidc != null) {
            oidc.close();
        }
        if (forge != null) {
            forge.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static void requireBinary(Path binary) {
        if (!Files.isExecutable(binary)) {
            throw new AssertionError(binary + " is missing: this test runs Debian's Prometheus "
                    + "(apt-get install -y prometheus, which brings promtool; .ci/run installs it)");
        }
    }

    private HttpResponse<String> metrics(String method, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsAreServedOnTheirOwnListenerOnly() throws Exception {
        assertThat(metricsPort).isNotEqualTo(klave.port());
        HttpResponse<String> scraped = metrics("GET", "/metrics");
        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.headers().firstValue("Content-Type")).contains(MetricsListener.CONTENT_TYPE);
        assertThat(metrics("GET", "/").statusCode()).isEqualTo(404);
        assertThat(metrics("GET", "/metrics/x").statusCode()).isEqualTo(404);
        assertThat(metrics("POST", "/metrics").statusCode()).isEqualTo(405);

        HttpResponse<String> publicPort = http.get("/metrics");
        assertThat(publicPort.statusCode()).isEqualTo(404);
        assertThat(publicPort.body()).doesNotContain("klave_");
    }

    @Test
    void theScrapeCountsWhatHappenedWithBoundedLabels() throws Exception {
        String text = metrics("GET", "/metrics").body();
        assertThat(sample(text, "klave_proxy_requests_total{cluster=\"prod-1\",code=\"200\",verb=\"list\"}"))
                .hasValueSatisfying(value -> assertThat(value).isGreaterThanOrEqualTo(PROXIED));
        assertThat(sample(text, "klave_proxy_requests_total{cluster=\"-\",code=\"401\",verb=\"list\"}"))
                .contains(1.0);
        assertThat(sample(text, "klave_proxy_request_duration_seconds_count{cluster=\"prod-1\",verb=\"list\"}"))
                .hasValueSatisfying(value -> assertThat(value).isGreaterThanOrEqualTo(PROXIED));
        assertThat(sample(text, "klave_sign_ins_total{method=\"password\",result=\"success\"}")).contains(1.0);
        assertThat(sample(text, "klave_sign_ins_total{method=\"password\",result=\"failure\"}")).contains(1.0);
        assertThat(sample(text, "klave_sign_ins_total{method=\"oidc\",result=\"success\"}")).contains(0.0);
        assertThat(sample(text, "klave_ci_exchanges_total{result=\"failure\"}")).contains(1.0);
        assertThat(sample(text, "klave_reconcile_passes_total{cluster=\"prod-1\",result=\"success\"}"))
                .hasValueSatisfying(value -> assertThat(value).isGreaterThanOrEqualTo(1));
        assertThat(sample(text, "klave_oidc_discovery_up")).contains(1.0);
        assertThat(sample(text, "klave_mcp_requests_total{method=\"tools/call\",outcome=\"ok\",tool=\"whoami\"}"))
                .contains(1.0);
        assertThat(sample(text, "klave_mcp_requests_total{method=\"tools/call\",outcome=\"tool_error\","
                + "tool=\"get_resource\"}")).contains(1.0);
        assertThat(sample(text, "klave_mcp_requests_total{method=\"tools/call\",outcome=\"rpc_error\",tool=\"-\"}"))
                .as("an unknown tool's name is not a label").contains(1.0);
        assertThat(sample(text, "klave_mcp_request_duration_seconds_count{method=\"tools/call\",tool=\"whoami\"}"))
                .contains(1.0);
        assertThat(sample(text, "klave_forge_sync_last_run_timestamp_seconds")).isPresent();
        assertThat(sample(text, "klave_audit_queue_depth")).isPresent();
        assertThat(sample(text, "klave_open_streams")).contains(0.0);
        assertThat(text).contains("klave_audit_commit_duration_seconds_bucket{result=\"success\",le=\"0.005\"}")
                .contains("klave_stream_cuts_total{reason=\"access\"}")
                .contains("jvm_memory_used_bytes{").contains("jvm_gc_").contains("jvm_threads_live_threads")
                .contains("hikaricp_connections_active{pool=\"klave-db\"}");
        // What must never be a label: the unregistered cluster's name, tokens, people, namespaces.
        assertThat(text).doesNotContain("no-such-cluster").doesNotContain("klt_").doesNotContain("root")
                .doesNotContain("team-a");
    }

    @Test
    void promtoolFindsNothingToLint() throws Exception {
        Path scraped = directory.resolve("scrape.txt");
        Files.writeString(scraped, metrics("GET", "/metrics").body());
        Process check = new ProcessBuilder(PROMTOOL.toString(), "check", "metrics").redirectErrorStream(true)
                .redirectInput(scraped.toFile()).start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(output).as("promtool check metrics").isEmpty();
        assertThat(check.exitValue()).as(output).isZero();
    }

    @Test
    void prometheusScrapesKlaveAndEveryDashboardQueryReturnsData() throws Exception {
        int port = freePort();
        Path config = directory.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: klave
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(metricsPort));
        Path log = directory.resolve("prometheus.log");
        Process prometheus = new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + directory.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Eventually.until("Prometheus scraping Klave (up == 1); its log: " + log, Duration.ofSeconds(30),
                    () -> prometheus.isAlive() && query(port, "up{job=\"klave\"} == 1").size() == 1);
            for (String series : List.of("klave_proxy_requests_total", "klave_proxy_request_duration_seconds_bucket",
                    "klave_audit_queue_depth", "klave_audit_commit_duration_seconds_bucket", "klave_open_streams",
                    "klave_stream_cuts_total", "klave_reconcile_passes_total", "klave_sign_ins_total",
                    "klave_ci_exchanges_total", "klave_forge_sync_last_run_success", "klave_oidc_discovery_up",
                    "jvm_memory_used_bytes", "hikaricp_connections_active")) {
                assertThat(query(port, series)).as(series).isNotEmpty();
            }
            List<String> expressions = dashboardExpressions();
            assertThat(expressions).hasSizeGreaterThanOrEqualTo(20);
            for (String expression : expressions) {
                // Grafana's own interval macro, which Prometheus does not know, as Grafana fills it.
                String query = expression.replace("$__rate_interval", "30s");
                Eventually.until("data for the dashboard's query " + query, Duration.ofSeconds(30),
                        () -> !query(port, query).isEmpty());
            }
        } finally {
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Every panel target's expression in the dashboard. */
    private static List<String> dashboardExpressions() throws IOException {
        JsonNode dashboard = JSON.readTree(DASHBOARD.toFile());
        List<String> expressions = new ArrayList<>();
        dashboard.get("panels").forEach(panel -> {
            assertThat(panel.path("targets").size()).as(panel.path("title").asText()).isPositive();
            panel.get("targets").forEach(target -> expressions.add(target.get("expr").asText()));
        });
        return expressions;
    }

    /** The result vector of an instant query through Prometheus's HTTP API. */
    private List<JsonNode> query(int port, String query) throws Exception {
        HttpResponse<String> answer;
        try {
            answer = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.net.ConnectException notYet) {
            return List.of(); // Prometheus not listening yet
        }
        if (answer.statusCode() == 503) {
            return List.of(); // still starting
        }
        JsonNode body = JSON.readTree(answer.body());
        assertThat(body.path("status").asText()).as(query + ": " + answer.body()).isEqualTo("success");
        List<JsonNode> result = new ArrayList<>();
        body.path("data").path("result").forEach(result::add);
        return result;
    }

    /** A sample's value from the text format, by its exact name and labels. */
    private static Optional<Double> sample(String text, String series) {
        for (String line : text.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Optional.of(Double.parseDouble(line.substring(series.length() + 1).trim().split(" ")[0]));
            }
        }
        return Optional.empty();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
