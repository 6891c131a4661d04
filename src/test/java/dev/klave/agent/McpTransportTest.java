package dev.klave.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What {@code /mcp} refuses before any method runs (spec 3 §4 "MCP endpoint", §7
 * "Transport-level"), and the lifecycle checks of both MCP revisions.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpTransportTest {
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private TestingAgents.Bot bot;
    private McpClient mcp;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        bot = TestingAgents.bot(klave, cluster, "prod-1", "deployer", "view", "team-a");
        mcp = new McpClient(http, bot.token());
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    @Test
    void aCallWithoutATokenIs401WithTheProtectedResourceChallenge() {
        McpClient.Answer answer = new McpClient(http, null).legacy("tools/list", null);

        assertThat(answer.status()).isEqualTo(401);
        // The base URL of the tests is the default one.
        assertThat(answer.response().headers().firstValue("WWW-Authenticate")).contains(
                "Bearer resource_metadata=\"http://localhost:8080/.well-known/oauth-protected-resource/mcp\"");
    }

    @Test
    void aPersonsCredentialOrAnUnknownTokenIs401() {
        assertThat(new McpClient(http, "klt_" + "A".repeat(43)).legacy("tools/list", null).status()).isEqualTo(401);
        assertThat(new McpClient(http, "not-a-token").legacy("tools/list", null).status()).isEqualTo(401);
    }

    @Test
    void getAndDeleteAre405AndNamePost() {
        HttpResponse<String> get = http.get("/mcp", "Authorization", "Bearer " + bot.token());
        HttpResponse<String> delete = http.send("DELETE", "/mcp", null, "Authorization", "Bearer " + bot.token());

        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).contains("POST");
        assertThat(delete.statusCode()).isEqualTo(405);
    }

    /** The agent-safety review: the routing headers said one thing while the body did another. */
    @Test
    void routingHeadersThatDisagreeWithTheBodyAreRefusedWhateverTheRevision() {
        String readSecret = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"read_secret\",\"arguments\":{\"cluster\":\"prod-1\",\"namespace\":\"team-a\",\"name\":\"db\"}}}";

        McpClient.Answer method = mcp.post(readSecret, "Mcp-Method", "tools/list");
        McpClient.Answer name = mcp.post(readSecret, "Mcp-Method", "tools/call", "Mcp-Name", "whoami");
        McpClient.Answer nameAlone = mcp.post(readSecret, "Mcp-Name", "whoami");

        for (McpClient.Answer answer : new McpClient.Answer[] {method, name, nameAlone}) {
            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.errorCode()).isEqualTo(-32020);
        }
    }

    @Test
    void aRepeatedKeyOrDataAfterTheMessageIsRefused() {
        McpClient.Answer repeated = mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"whoami\",\"name\":\"read_secret\",\"arguments\":{}}}");
        McpClient.Answer trailing = mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} "
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");

        assertThat(repeated.status()).isEqualTo(400);
        assertThat(repeated.errorCode()).isEqualTo(-32700);
        assertThat(trailing.status()).isEqualTo(400);
        assertThat(trailing.errorCode()).isEqualTo(-32700);
    }

    @Test
    void aMessageNotSentAsJsonIs415() {
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        HttpResponse<String> plain = http.send("POST", "/mcp", ping, "Content-Type", "text/plain", "Authorization",
                "Bearer " + bot.token(), "MCP-Protocol-Version", "2025-11-25");
        HttpResponse<String> json = http.send("POST", "/mcp", ping, "Content-Type", "application/json; charset=utf-8",
                "Authorization", "Bearer " + bot.token(), "MCP-Protocol-Version", "2025-11-25");

        assertThat(plain.statusCode()).isEqualTo(415);
        assertThat(plain.body()).contains("-32600");
        assertThat(json.statusCode()).isEqualTo(200);
    }

    @Test
    void aBatchIsRefusedWith400() {
        McpClient.Answer answer = mcp.post("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo(-32600);
    }

    @Test
    void anotherOriginIs403() {
        McpClient.Answer answer = mcp.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "Origin",
                "http://evil.example.com");

        assertThat(answer.status()).isEqualTo(403);
    }

    @Test
    void aBodyOverOneMebibyteIs413() {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" + "a".repeat(1024 * 1024)
                + "\"}}";

        assertThat(mcp.post(big).status()).isEqualTo(413);
    }

    @Test
    void initializeAnswersTheLegacyRevisionWithInstructions() {
        ObjectNode params = McpClient.JSON.createObjectNode();
        params.put("protocolVersion", McpClient.LEGACY);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "t").put("version", "1");
        McpClient.Answer answer = mcp.post(McpClient.write(McpClient.JSON.createObjectNode().put("jsonrpc", "2.0")
                .put("id", 7).put("method", "initialize").set("params", params)));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body().path("id").asInt()).isEqualTo(7);
        assertThat(answer.result().path("protocolVersion").asText()).isEqualTo(McpClient.LEGACY);
        assertThat(answer.result().path("capabilities").has("tools")).isTrue();
        assertThat(answer.result().path("instructions").asText()).contains("whoami", "approval_id", "request_access",
                "read_secret", "never instructions");
    }

    @Test
    void aNotificationIsAcceptedWithNothingToSay() {
        McpClient.Answer answer = mcp.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "MCP-Protocol-Version", McpClient.LEGACY);

        assertThat(answer.status()).isEqualTo(202);
        assertThat(answer.response().body()).isEmpty();
    }

    @Test
    void serverDiscoverListsBothRevisionsAndIdentifiesTheServer() {
        McpClient.Answer answer = mcp.modern("server/discover", null);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.result().path("resultType").asText()).isEqualTo("complete");
        assertThat(answer.result().path("supportedVersions").toString()).contains(McpClient.MODERN, McpClient.LEGACY);
        assertThat(answer.result().path("_meta").path("io.modelcontextprotocol/serverInfo").path("name").asText())
                .isEqualTo("klave");
        assertThat(answer.result().path("instructions").asText()).contains("whoami");
    }

    @Test
    void aModernRequestWithoutTheVersionHeaderIsAHeaderMismatch() {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";

        McpClient.Answer missing = mcp.post(body, "Mcp-Method", "tools/list");
        McpClient.Answer disagreeing = mcp.post(body, "MCP-Protocol-Version", McpClient.LEGACY, "Mcp-Method",
                "tools/list");
        McpClient.Answer wrongMethod = mcp.post(body, "MCP-Protocol-Version", McpClient.MODERN, "Mcp-Method",
                "tools/call");

        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.errorCode()).isEqualTo(-32020);
        assertThat(missing.body().path("id").asInt()).isEqualTo(3);
        assertThat(disagreeing.errorCode()).isEqualTo(-32020);
        assertThat(wrongMethod.errorCode()).isEqualTo(-32020);
    }

    @Test
    void anUnsupportedVersionNamesTheSupportedOnesAndEchoesTheRequestedOne() {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"v999.0.0\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";

        McpClient.Answer answer = mcp.post(body, "MCP-Protocol-Version", "v999.0.0", "Mcp-Method", "server/discover");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo(-32022);
        assertThat(answer.body().path("error").path("data").path("supported").toString()).contains(McpClient.MODERN);
        assertThat(answer.body().path("error").path("data").path("requested").asText()).isEqualTo("v999.0.0");
    }

    @Test
    void aModernHeaderWithoutMetaIsInvalidParams() {
        McpClient.Answer answer = mcp.post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"server/discover\","
                + "\"params\":{}}", "MCP-Protocol-Version", McpClient.MODERN, "Mcp-Method", "server/discover");
        McpClient.Answer noCapabilities = mcp.post("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"server/discover\","
                + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}",
                "MCP-Protocol-Version", McpClient.MODERN, "Mcp-Method", "server/discover");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.errorCode()).isEqualTo(-32602);
        assertThat(noCapabilities.status()).isEqualTo(400);
        assertThat(noCapabilities.errorCode()).isEqualTo(-32602);
    }

    @Test
    void theHandshakeAndPingAreNotMethodsOfTheStatelessRevision() {
        for (String method : new String[] {"initialize", "ping", "logging/setLevel", "unknown/method"}) {
            McpClient.Answer answer = mcp.modern(method, null);

            assertThat(answer.status()).as(method).isEqualTo(404);
            assertThat(answer.errorCode()).as(method).isEqualTo(-32601);
        }
    }

    @Test
    void bothRevisionsListTheToolsInOneOrder() {
        McpClient.Answer legacy = mcp.legacy("tools/list", null);
        McpClient.Answer modern = mcp.modern("tools/list", null);

        java.util.List<String> names = new java.util.ArrayList<>();
        legacy.result().path("tools").forEach(tool -> names.add(tool.path("name").asText()));
        assertThat(names).containsExactly("whoami", "list_clusters",
                "list_api_resources", "list_resources", "get_resource", "describe", "get_events", "get_logs",
                "top", "read_secret",
                "apply", "patch", "delete_resource", "scale", "rollout_restart", "request_access", "recent_calls");
        assertThat(modern.result().path("tools")).isEqualTo(legacy.result().path("tools"));
        assertThat(modern.result().path("resultType").asText()).isEqualTo("complete");
        assertThat(modern.result().path("ttlMs").asLong()).isPositive();
        assertThat(modern.result().path("cacheScope").asText()).isEqualTo("public");
    }

    @Test
    void anUnknownToolIsInvalidParamsInBand() {
        McpClient.Answer answer = mcp.call("kubectl", McpClient.args());

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.errorCode()).isEqualTo(-32602);
    }

    @Test
    void pathsUnderTheLoginMountsAre404NotTheWebInterface() {
        for (String path : new String[] {"/oauth/nothing-here", "/.well-known/oauth-protected-resource",
                "/.well-known/anything", "/oauth"}) {
            HttpResponse<String> answer = http.get(path);

            assertThat(answer.statusCode()).as(path).isEqualTo(404);
            assertThat(answer.body()).as(path).doesNotContain("<html");
        }
    }

    /**
     * The catalogue is a contract with every agent's prompt: names, descriptions, schemas and
     * annotations change only on purpose, by changing this file.
     */
    @Test
    void theToolCatalogueIsTheGoldenOne() throws Exception {
        com.fasterxml.jackson.databind.JsonNode tools = mcp.legacy("tools/list", null).result().path("tools");
        java.nio.file.Path golden = java.nio.file.Path.of("src/test/resources/agent/tools.json");
        String actual = McpClient.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tools) + "\n";
        java.nio.file.Files.writeString(java.nio.file.Path.of("target/tools.actual.json"), actual);

        assertThat(actual).isEqualTo(java.nio.file.Files.readString(golden));
        for (com.fasterxml.jackson.databind.JsonNode tool : tools) {
            String name = tool.path("name").asText();
            boolean read = java.util.List.of("whoami", "list_clusters", "list_api_resources", "list_resources",
                    "get_resource", "get_events", "get_logs", "read_secret", "top", "describe", "recent_calls")
                    .contains(name);
            com.fasterxml.jackson.databind.JsonNode hints = tool.path("annotations");
            assertThat(hints.path("readOnlyHint").asBoolean()).as(name).isEqualTo(read);
            assertThat(hints.path("destructiveHint").asBoolean()).as(name)
                    .isEqualTo(name.equals("apply") || name.equals("patch") || name.equals("delete_resource"));
            if (!read) {
                assertThat(hints.path("idempotentHint").asBoolean()).as(name)
                        .isEqualTo(name.equals("apply") || name.equals("patch") || name.equals("scale"));
            }
        }
    }
}
