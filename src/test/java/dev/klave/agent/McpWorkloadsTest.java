package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * The tools on the rest of what a cluster holds: StatefulSets and DaemonSets, a custom resource
 * (which only cluster-wide roles reach, as in Kubernetes), events, and the previous log of a
 * restarted container.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpWorkloadsTest {
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private McpClient mcp;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        TestingAgents.Bot bot = TestingAgents.bot(klave, cluster, "prod-1", "operator", "cluster-admin", "*");
        mcp = new McpClient(klave.http(), bot.token());
        cluster.objects().put("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: team-a}
                spec:
                  replicas: 1
                  serviceName: db
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                    spec: {containers: [{name: db, image: postgres}]}
                """);
        cluster.objects().put("""
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent, namespace: team-a}
                spec:
                  selector: {matchLabels: {app: agent}}
                  template:
                    metadata: {labels: {app: agent}}
                    spec: {containers: [{name: agent, image: agent}]}
                """);
        cluster.objects().put("""
                apiVersion: example.com/v1
                kind: Widget
                metadata: {name: gear, namespace: team-a}
                spec: {size: 3}
                """);
        cluster.objects().put("""
                apiVersion: v1
                kind: Pod
                metadata: {name: worker, namespace: team-a}
                spec: {containers: [{name: main, image: worker}]}
                """);
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    @Test
    void listApiResourcesShowsTheCustomResourceWithItsShortName() {
        McpClient.Answer answer = mcp.call("list_api_resources", args("cluster", "prod-1"));

        assertThat(answer.isError()).as(answer.text()).isFalse();
        assertThat(answer.text()).contains("widgets", "wdg", "example.com/v1", "statefulsets", "sts");
    }

    @Test
    void theCustomResourceIsListedAndReadByItsShortName() {
        McpClient.Answer list = mcp.call("list_resources", args("cluster", "prod-1", "kind", "wdg",
                "namespace", "team-a"));
        McpClient.Answer get = mcp.call("get_resource", args("cluster", "prod-1", "kind", "Widget",
                "api_version", "example.com/v1", "namespace", "team-a", "name", "gear"));

        assertThat(list.text()).contains("gear");
        assertThat(get.text()).contains("kind: Widget", "size: 3");
    }

    @Test
    void aStatefulSetScalesAndADaemonSetRestarts() {
        ObjectNode scale = args("cluster", "prod-1", "kind", "sts", "namespace", "team-a", "name", "db");
        scale.put("replicas", 3);
        McpClient.Answer scaled = mcp.call("scale", scale);
        McpClient.Answer restarted = mcp.call("rollout_restart", args("cluster", "prod-1", "kind", "ds",
                "namespace", "team-a", "name", "agent"));

        assertThat(scaled.isError()).as(scaled.text()).isFalse();
        assertThat(cluster.objects().get("statefulsets", "team-a", "db").orElseThrow().path("spec")
                .path("replicas").asInt()).isEqualTo(3);
        assertThat(restarted.isError()).as(restarted.text()).isFalse();
        JsonNode daemonSet = cluster.objects().get("daemonsets", "team-a", "agent").orElseThrow();
        assertThat(daemonSet.path("spec").path("template").path("metadata").path("annotations")
                .has("kubectl.kubernetes.io/restartedAt")).isTrue();
    }

    @Test
    void thePreviousLogOfARestartedContainerIsRead() {
        cluster.pods().appendLog("team-a", "worker", "main", "before the crash");
        cluster.pods().restartContainer("team-a", "worker", "main", 137);
        cluster.pods().appendLog("team-a", "worker", "main", "after the restart");
        ObjectNode previous = args("cluster", "prod-1", "namespace", "team-a", "pod", "worker");
        previous.put("previous", true);

        McpClient.Answer before = mcp.call("get_logs", previous);
        McpClient.Answer now = mcp.call("get_logs", args("cluster", "prod-1", "namespace", "team-a", "pod",
                "worker"));

        assertThat(before.text()).contains("before the crash").doesNotContain("after the restart");
        assertThat(now.text()).contains("after the restart").doesNotContain("before the crash");
    }

    @Test
    void eventsOfOneObjectAreItsOwn() {
        // Created through the API, the pod gets the scheduler's and kubelet's events.
        for (String name : new String[] {"eventful", "other"}) {
            assertThat(mcp.call("apply", args("cluster", "prod-1", "manifest", "apiVersion: v1\nkind: Pod\n"
                    + "metadata: {name: " + name + ", namespace: team-a}\nspec: {containers: [{name: c, image: i}]}\n"))
                    .isError()).isFalse();
        }
        McpClient.Answer events = mcp.call("get_events", args("cluster", "prod-1", "namespace", "team-a",
                "name", "eventful"));

        assertThat(events.isError()).as(events.text()).isFalse();
        assertThat(events.text()).startsWith("LAST SEEN").contains("pod/eventful", "Scheduled")
                .doesNotContain("pod/other");
    }
}
