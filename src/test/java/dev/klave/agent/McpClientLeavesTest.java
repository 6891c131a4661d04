package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Spec 3 §4 "Write approval flow" 3: a call whose client left claims nothing. The client goes away
 * while its call waits for the person; the person approves; the write stays approved, unrun, until
 * the agent calls again.
 */
class McpClientLeavesTest {
    @Test
    void aCallWhoseClientLeftWhileWaitingClaimsNothing() throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            TestingKlave klave = TestingKlave.start(new TestingClock(), settings -> settings.with(
                    "SERVICE_AGENT_APPROVAL_WAIT", "4m"));
            try {
                TestingAgents.Bot bot = TestingAgents.bot(klave, cluster, "prod-1", "careful", "edit", "team-a");
                klave.http().send("PATCH", "/api/subjects/" + bot.id(), "{\"writes_need_approval\":true}", "Cookie",
                        bot.admin());
                cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flags, namespace: team-a}\n");
                McpClient mcp = new McpClient(klave.http(), bot.token());
                ObjectNode delete = args("cluster", "prod-1", "kind", "configmap", "namespace", "team-a", "name",
                        "flags");
                String id = mcp.call("delete_resource", delete).result().path("structuredContent").path("params")
                        .path("id").asText();
                delete.put("approval_id", id);

                String body = McpClient.write(McpClient.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1)
                        .put("method", "tools/call").set("params", McpClient.JSON.createObjectNode()
                                .put("name", "delete_resource").set("arguments", delete)));
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), klave.port())) {
                    OutputStream out = socket.getOutputStream();
                    out.write(("POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Authorization: Bearer " + bot.token() + "\r\nContent-Length: "
                            + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
                            .getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Eventually.until("the call waiting for the person", Duration.ofSeconds(5),
                            () -> klave.hooks().approvals().waiting(id) == 1);
                }
                // The client left: its call must stop waiting, before anyone decides.
                Eventually.until("the wait of the client that left ended", Duration.ofSeconds(5),
                        () -> klave.hooks().approvals().waiting(id) == 0);
                assertThat(klave.http().send("POST", "/api/agents/requests/" + id + "/approve", "{}", "Cookie",
                        bot.admin()).statusCode()).isEqualTo(200);

                assertThat(cluster.objects().get("configmaps", "team-a", "flags")).isPresent();
                Eventually.until("the request still approved, not run", Duration.ofSeconds(2),
                        () -> klave.http().get("/api/agents/requests/" + id, "Cookie", bot.admin()).body()
                                .contains("\"status\":\"approved\""));
                McpClient.Answer again = mcp.call("delete_resource", delete);
                assertThat(again.text()).startsWith("approved by root");
                assertThat(cluster.objects().get("configmaps", "team-a", "flags")).isEmpty();
            } finally {
                klave.close();
            }
        }
    }
}
