package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 43: {@code top} reads the resource metrics API through the gateway, as kubectl top prints
 * it; nodes need a cluster-wide role like any cluster-scoped read; a cluster without metrics-server
 * gets a clear error.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpTopTest {
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private McpClient mcp;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        TestingAgents.Bot bot = TestingAgents.bot(klave, cluster, "prod-1", "watcher", "view", "team-a");
        mcp = new McpClient(klave.http(), bot.token());
        cluster.objects().put("""
                apiVersion: metrics.k8s.io/v1beta1
                kind: PodMetrics
                metadata: {name: api-0, namespace: team-a}
                timestamp: "2026-11-29T10:00:00Z"
                window: 30s
                containers:
                - {name: api, usage: {cpu: 250000000n, memory: 131072Ki}}
                - {name: proxy, usage: {cpu: 5m, memory: 32Mi}}
                """);
        cluster.objects().put("""
                apiVersion: metrics.k8s.io/v1beta1
                kind: PodMetrics
                metadata: {name: worker-0, namespace: team-a}
                containers:
                - {name: worker, usage: {cpu: "1", memory: 1Gi}}
                """);
        cluster.objects().put("""
                apiVersion: metrics.k8s.io/v1beta1
                kind: NodeMetrics
                metadata: {name: node-1}
                usage: {cpu: 1500m, memory: 4Gi}
                """);
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    @Test
    void podsAreListedBusiestFirstAsKubectlTopPrintsThem() {
        McpClient.Answer pods = mcp.call("top", args("cluster", "prod-1", "namespace", "team-a"));
        McpClient.Answer one = mcp.call("top", args("cluster", "prod-1", "namespace", "team-a", "name", "api-0"));

        assertThat(pods.isError()).as(pods.text()).isFalse();
        assertThat(pods.text().lines().toList()).element(1).asString().startsWith("worker-0").contains("1000m")
                .contains("1024Mi");
        assertThat(pods.text()).contains("api-0").contains("255m").contains("160Mi");
        assertThat(one.text()).contains("  api ").contains("250m").contains("128Mi").contains("  proxy")
                .contains("5m").contains("32Mi");
    }

    @Test
    void nodesNeedAClusterWideRoleLikeAnyClusterScopedRead() {
        ObjectNode nodes = args("cluster", "prod-1");
        nodes.put("nodes", true);

        McpClient.Answer answer = mcp.call("top", nodes);

        assertThat(answer.isError()).isTrue();
        assertThat(answer.text()).startsWith("403 Forbidden").contains("request_access");
    }

    @Test
    void aClusterWithoutTheMetricsApiSaysSo() {
        cluster.metricsApi(false);
        try {
            McpClient.Answer answer = mcp.call("top", args("cluster", "prod-1", "namespace", "team-a"));

            assertThat(answer.isError()).isTrue();
            assertThat(answer.text()).startsWith("agent.metrics_unavailable: ").contains("metrics-server");
        } finally {
            cluster.metricsApi(true);
        }
    }
}
