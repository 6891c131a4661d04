package dev.klave.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Real clients against {@code /mcp} (versions pinned in {@code src/test/mcp-clients}): the MCP
 * Inspector CLI on both protocol eras, and the TypeScript client pinned to 2026-07-28 driving a
 * held write through URL elicitation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpRealClientsTest {
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingAgents.Bot bot;
    private String url;

    @BeforeAll
    void start() {
        NodeClients.requireInstalled();
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.startAtOwnAddress(new TestingClock(), settings -> settings);
        bot = TestingAgents.bot(klave, cluster, "prod-1", "careful", "edit", "team-a");
        url = "http://127.0.0.1:" + klave.port() + "/mcp";
        TestingAgents.webDeployment(cluster);
    }

    @AfterAll
    void stop() {
        if (klave != null) {
            klave.close();
            cluster.close();
        }
    }

    @Test
    void theInspectorListsAndCallsToolsOnTheLegacyEra() throws Exception {
        NodeClients.Run list = NodeClients.run(NodeClients.inspector(url, bot.token(), "legacy", "--method",
                "tools/list"), Map.of(), 120);
        NodeClients.Run call = NodeClients.run(NodeClients.inspector(url, bot.token(), "legacy", "--method",
                "tools/call", "--tool-name", "list_resources", "--tool-arg", "cluster=prod-1", "kind=deploy",
                "namespace=team-a"), Map.of(), 120);

        assertThat(list.exit()).as(list.toString()).isZero();
        assertThat(list.stdout()).contains("\"whoami\"", "\"request_access\"", "\"readOnlyHint\"");
        assertThat(call.exit()).as(call.toString()).isZero();
        assertThat(call.stdout()).contains("web");
    }

    @Test
    void theInspectorSpeaksTheModernEraToo() {
        NodeClients.Run whoami = NodeClients.run(NodeClients.inspector(url, bot.token(), "modern", "--method",
                "tools/call", "--tool-name", "whoami"), Map.of(), 120);

        assertThat(whoami.exit()).as(whoami.toString()).isZero();
        assertThat(whoami.stdout()).contains("bot:careful");
    }

    @Test
    void theTypescriptClientCallsTheSecondRoundsToolsAndGetsAPrompt() throws Exception {
        cluster.objects().put("""
                apiVersion: metrics.k8s.io/v1beta1
                kind: PodMetrics
                metadata: {name: web-metrics, namespace: team-a}
                containers: [{name: web, usage: {cpu: 20m, memory: 64Mi}}]
                """);
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ts, namespace: team-a}\n"
                + "data: {mode: fast}\n");
        String calls = """
                [["describe", {"cluster": "prod-1", "kind": "deployment", "namespace": "team-a", "name": "web"}],
                 ["top", {"cluster": "prod-1", "namespace": "team-a"}],
                 ["patch", {"cluster": "prod-1", "kind": "configmap", "namespace": "team-a", "name": "ts",
                            "patch": "{\\"data\\": {\\"mode\\": \\"slow\\"}}"}],
                 ["recent_calls", {"limit": 5}]]
                """;
        String prompt = "[\"crashing_pod\", {\"cluster\": \"prod-1\", \"namespace\": \"team-a\", \"pod\": \"web-1\"}]";

        NodeClients.Run run = NodeClients.run(List.of("node", "tools.mjs", url, bot.token(), calls, prompt), Map.of(),
                120);

        assertThat(run.exit()).as(run.toString()).isZero();
        List<JsonNode> lines = new java.util.ArrayList<>();
        for (String line : run.stdout().lines().filter(line -> line.startsWith("{")).toList()) {
            lines.add(McpClient.JSON.readTree(line));
        }
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0).path("result").path("content").get(0).path("text").asText())
                .contains("Deployment web in team-a");
        assertThat(lines.get(1).path("result").path("content").get(0).path("text").asText())
                .contains("web-metrics").contains("20m").contains("64Mi");
        assertThat(lines.get(2).path("result").path("isError").asBoolean()).isFalse();
        assertThat(cluster.objects().get("configmaps", "team-a", "ts").orElseThrow().path("data").path("mode")
                .asText()).isEqualTo("slow");
        assertThat(lines.get(3).path("result").path("structuredContent").path("calls").isArray()).isTrue();
        assertThat(lines.get(4).path("prompts").toString()).contains("crashing_pod", "stuck_rollout", "who_changed");
        assertThat(lines.get(5).path("prompt").path("messages").get(0).path("content").path("text").asText())
                .contains("Pod web-1 in namespace team-a of cluster prod-1");
    }

    @Test
    void theTypescriptClientFollowsTheUrlElicitationOfAHeldWrite() throws Exception {
        klave.http().send("PATCH", "/api/subjects/" + bot.id(), "{\"writes_need_approval\":true}", "Cookie",
                bot.admin());
        try {
            Process process = new ProcessBuilder("node", "approval.mjs", url, bot.token(), "scale",
                    "{\"cluster\":\"prod-1\",\"kind\":\"deployments\",\"namespace\":\"team-a\",\"name\":\"web\","
                            + "\"replicas\":4}")
                    .directory(NodeClients.DIRECTORY.toFile()).redirectErrorStream(true).start();
            BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            String first = lines.readLine();
            assertThat(first).as("the client's first line").startsWith("{\"elicitation\"");
            JsonNode elicitation = McpClient.JSON.readTree(first).path("elicitation");
            assertThat(elicitation.path("mode").asText()).isEqualTo("url");
            assertThat(elicitation.path("message").asText())
                    .isEqualTo("Approve in Klave: scale deployments/web in team-a (prod-1)");
            String link = elicitation.path("url").asText();
            String id = link.substring(link.lastIndexOf('/') + 1);
            assertThat(klave.http().send("POST", "/api/agents/requests/" + id + "/approve", "{}", "Cookie",
                    bot.admin()).statusCode()).isEqualTo(200);

            OutputStream answer = process.getOutputStream();
            answer.write("accept\n".getBytes(StandardCharsets.UTF_8));
            answer.flush();
            String last = lines.readLine();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

            assertThat(last).as("the client's result").contains("approved by root at ", "scaled to 4 replicas");
            assertThat(cluster.objects().get("deployments", "team-a", "web").orElseThrow().path("spec")
                    .path("replicas").asInt()).isEqualTo(4);
        } finally {
            klave.http().send("PATCH", "/api/subjects/" + bot.id(), "{\"writes_need_approval\":false}", "Cookie",
                    bot.admin());
        }
    }

    static List<String> lines(String text) {
        return text.lines().toList();
    }
}
