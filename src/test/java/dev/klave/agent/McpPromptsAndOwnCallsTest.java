package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 43: the prompts for the common investigations, and {@code recent_calls} — an agent's own
 * cluster requests from the audit, never another agent's, reaching no cluster itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpPromptsAndOwnCallsTest {
    private final TestingClock clock = new TestingClock();
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingAgents.Bot bot;
    private TestingAgents.Bot other;
    private McpClient mcp;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(clock, settings -> settings.with("SERVICE_MCP_RATE_LIMIT", "10000"));
        bot = TestingAgents.bot(klave, cluster, "prod-1", "looker", "view", "team-a");
        other = TestingAgents.another(klave, cluster, bot.admin(), "prod-1", "neighbour", "view", "team-a");
        mcp = new McpClient(klave.http(), bot.token());
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: seen, namespace: team-a}\n");
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    private static ObjectNode prompt(String name, String... arguments) {
        ObjectNode params = JsonNodeFactory.instance.objectNode().put("name", name);
        params.set("arguments", args(arguments));
        return params;
    }

    @Test
    void thePromptsAreListedWithTheirArgumentsAndDeclaredAsACapability() {
        JsonNode initialized = mcp.legacy("initialize", null).result();
        JsonNode prompts = mcp.legacy("prompts/list", null).result().path("prompts");

        assertThat(initialized.path("capabilities").path("prompts").isObject()).isTrue();
        java.util.List<String> names = new java.util.ArrayList<>();
        prompts.forEach(prompt -> names.add(prompt.path("name").asText()));
        assertThat(names).containsExactly("crashing_pod", "stuck_rollout", "who_changed");
        assertThat(prompts.get(0).path("arguments").findValuesAsText("name"))
                .containsExactly("cluster", "namespace", "pod");
        assertThat(prompts.get(0).path("arguments").get(2).path("required").asBoolean()).isTrue();
    }

    @Test
    void aPromptNamesTheObjectAndTheToolsToCallAndRefusesWhatIsNoName() {
        JsonNode crashing = mcp.legacy("prompts/get", prompt("crashing_pod", "cluster", "prod-1", "namespace",
                "team-a", "pod", "api-7")).result();
        McpClient.Answer hostile = mcp.legacy("prompts/get", prompt("crashing_pod", "cluster", "prod-1",
                "namespace", "Team A", "pod", "api-7"));
        McpClient.Answer unknown = mcp.legacy("prompts/get", prompt("rm_rf"));

        String text = crashing.path("messages").get(0).path("content").path("text").asText();
        assertThat(crashing.path("messages").get(0).path("role").asText()).isEqualTo("user");
        assertThat(text).contains("Pod api-7 in namespace team-a of cluster prod-1").contains("get_logs")
                .contains("previous=true").contains("get_events");
        assertThat(hostile.body().path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(hostile.body().path("error").path("message").asText()).contains("namespace");
        assertThat(unknown.body().path("error").path("code").asInt()).isEqualTo(-32602);
    }

    @Test
    void whoChangedTellsABotThatTheAuditIsForAdministrators() {
        JsonNode answer = mcp.legacy("prompts/get", prompt("who_changed", "cluster", "prod-1", "namespace", "team-a",
                "resource", "configmaps", "name", "seen")).result();

        assertThat(answer.path("messages").get(0).path("content").path("text").asText())
                .contains("for administrators").contains("recent_calls");
    }

    @Test
    void describeExplainsWhyAWorkloadIsNotReadyInOneAnswer() {
        cluster.objects().put("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: shop, namespace: team-a}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: shop}}
                  template:
                    metadata: {labels: {app: shop}}
                    spec: {containers: [{name: shop, image: "shop:7", env: [{name: DB,
                      value: "postgres://shop:hunter22@db/shop"}]}]}
                status:
                  replicas: 2
                  readyReplicas: 1
                  unavailableReplicas: 1
                  conditions:
                  - {type: Available, status: "False", reason: MinimumReplicasUnavailable,
                     message: Deployment does not have minimum availability.}
                """);
        cluster.objects().put("""
                apiVersion: v1
                kind: Pod
                metadata: {name: shop-1, namespace: team-a, labels: {app: shop}}
                spec: {containers: [{name: shop, image: "shop:7"}]}
                status:
                  phase: Running
                  containerStatuses:
                  - name: shop
                    ready: false
                    restartCount: 6
                    state: {waiting: {reason: CrashLoopBackOff}}
                    lastState: {terminated: {reason: Error, exitCode: 3}}
                """);
        cluster.objects().put("""
                apiVersion: v1
                kind: Pod
                metadata: {name: other-1, namespace: team-a, labels: {app: other}}
                spec: {containers: [{name: other, image: other}]}
                """);
        cluster.objects().put("""
                apiVersion: v1
                kind: Event
                metadata: {name: shop.1, namespace: team-a}
                involvedObject: {kind: Deployment, name: shop, namespace: team-a}
                type: Warning
                reason: ProgressDeadlineExceeded
                message: ReplicaSet "shop-7" has timed out progressing.
                """);

        McpClient.Answer shop = mcp.call("describe", args("cluster", "prod-1", "kind", "deploy", "namespace",
                "team-a", "name", "shop"));
        McpClient.Answer pod = mcp.call("describe", args("cluster", "prod-1", "kind", "pod", "namespace",
                "team-a", "name", "shop-1"));

        assertThat(shop.isError()).as(shop.text()).isFalse();
        // The simulator keeps a deployment's status itself: its conditions, not the manifest's, show.
        assertThat(shop.text()).contains("Deployment shop in team-a").contains("Replicas: desired 2")
                .contains("Conditions:\n  Available=").contains("shop-1").contains("CrashLoopBackOff").doesNotContain("other-1")
                .contains("ProgressDeadlineExceeded").doesNotContain("hunter22");
        assertThat(pod.text()).contains("waiting: CrashLoopBackOff").contains("Last state: terminated: Error, exit code 3")
                .contains("restarts: 6");
    }

    @Test
    void recentCallsListsThisAgentsOwnRequestsAndNoOneElses() {
        new McpClient(klave.http(), other.token()).call("get_events", args("cluster", "prod-1", "namespace",
                "team-a"));
        clock.advance(Duration.ofMinutes(1));
        McpClient.Answer read = mcp.call("get_resource", args("cluster", "prod-1", "kind", "configmap",
                "namespace", "team-a", "name", "seen"));
        assertThat(read.isError()).as(read.text()).isFalse();
        cluster.clearRequests();

        JsonNode calls = Eventually.value("the get in the audit", Duration.ofSeconds(5), () -> {
            JsonNode found = mcp.call("recent_calls", args()).result().path("structuredContent").path("calls");
            // The row first, then its completion (the status) once the answer has gone.
            boolean done = found.size() > 0 && found.get(0).path("path").asText().endsWith("/configmaps/seen")
                    && found.get(0).has("status");
            return done ? java.util.Optional.of(found) : java.util.Optional.empty();
        });

        assertThat(calls.findValuesAsText("tool")).as("the neighbour's get_events is not this agent's")
                .doesNotContain("get_events").first().isEqualTo("get_resource");
        assertThat(calls.get(0).path("path").asText()).isEqualTo("/api/v1/namespaces/team-a/configmaps/seen");
        assertThat(calls.get(0).path("status").asInt()).isEqualTo(200);
        assertThat(cluster.requests()).as("recent_calls reaches no cluster").isEmpty();
        ObjectNode one = args();
        one.put("limit", 1);
        assertThat(mcp.call("recent_calls", one).result().path("structuredContent").path("calls")).hasSize(1);
    }
}
