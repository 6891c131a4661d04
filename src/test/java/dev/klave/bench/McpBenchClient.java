package dev.klave.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingKlave;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The calls the agent endpoint's benchmarks make, over plain HTTP so that the same file runs against
 * an older build: a bot whose writes wait for approval, deployments for it to scale, a read tool's
 * call, and a held write's whole way (held, approved by a person, called again and run).
 */
public final class McpBenchClient {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;
    private final String token;
    private final String adminCookie;

    private McpBenchClient(String base, String token, String adminCookie) {
        this.base = base;
        this.token = token;
        this.adminCookie = adminCookie;
    }

    /**
     * A bot with {@code edit} in {@code team-a} of {@code prod-1} whose writes need approval, a
     * ConfigMap {@code settings} to read and a deployment {@code web-<n>} per client to scale.
     */
    public static McpBenchClient approvingBot(TestingKlave klave, ClusterSimulator cluster, int clients) throws Exception {
        TestingAgents.Bot bot = TestingAgents.bot(klave, cluster, "prod-1", "bench", "edit", "team-a");
        String base = "http://127.0.0.1:" + klave.port();
        HttpResponse<String> set = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/subjects/" + bot.id()))
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"writes_need_approval\":true}"))
                .header("Content-Type", "application/json").header("Cookie", bot.admin()).build(),
                HttpResponse.BodyHandlers.ofString());
        if (set.statusCode() != 200) {
            throw new IllegalStateException("writes_need_approval: " + set.body());
        }
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: team-a}\n"
                + "data: {mode: fast}\n");
        for (int i = 0; i < clients; i++) {
            cluster.objects().put("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-" + i
                    + ", namespace: team-a}\nspec: {replicas: 1, selector: {matchLabels: {app: web-" + i
                    + "}}, template: {metadata: {labels: {app: web-" + i + "}}, spec: {containers: "
                    + "[{name: web, image: nginx}]}}}\n");
        }
        return new McpBenchClient(base, bot.token(), bot.admin());
    }

    /** The bot's {@code klt_} credential, which the proxy takes too. */
    public String token() {
        return token;
    }

    /** {@code get_resource} of the ConfigMap; whether it answered without an error. */
    public boolean read() {
        JsonNode answer = answer(call("get_resource", "{\"cluster\":\"prod-1\",\"kind\":\"configmap\","
                + "\"namespace\":\"team-a\",\"name\":\"settings\"}"));
        return answer != null && !answer.path("result").path("isError").asBoolean(true);
    }

    /** {@code scale} of {@code web-<client>} held, approved by the administrator, called again and run. */
    public boolean approvedWrite(int client, long replicas) {
        String arguments = "{\"cluster\":\"prod-1\",\"kind\":\"deployment\",\"namespace\":\"team-a\",\"name\":\"web-"
                + client + "\",\"replicas\":" + replicas;
        JsonNode held = answer(call("scale", arguments + "}"));
        String id = held == null ? "" : held.path("result").path("structuredContent").path("params").path("id")
                .asText();
        if (id.isEmpty()) {
            return false;
        }
        try {
            HttpResponse<String> approved = HTTP.send(HttpRequest.newBuilder(URI.create(base
                    + "/api/agents/requests/" + id + "/approve")).POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .header("Content-Type", "application/json").header("Cookie", adminCookie).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (approved.statusCode() != 200) {
                return false;
            }
        } catch (Exception e) {
            return false;
        }
        JsonNode ran = answer(call("scale", arguments + ",\"approval_id\":\"" + id + "\"}"));
        return ran != null && !ran.path("result").path("isError").asBoolean(true);
    }

    private static String call(String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    private JsonNode answer(String body) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/mcp"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .header("MCP-Protocol-Version", "2025-11-25")
                    .header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
        } catch (Exception e) {
            return null;
        }
    }
}
