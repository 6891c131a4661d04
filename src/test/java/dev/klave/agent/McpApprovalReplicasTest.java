package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.config.DatabaseUrl;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPostgres;
import dev.klave.testing.TestingSettings;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Spec 3 §4 "Write approval flow" across replicas on PostgreSQL: the call waits on replica A, the
 * person approves on replica B, and A wakes at once and runs the write exactly once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpApprovalReplicasTest {
    private ClusterSimulator cluster;
    private DatabaseUrl.Postgres database;
    private TestingKlave first;
    private TestingKlave second;
    private TestingAgents.Bot bot;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        database = TestingPostgres.freshDatabase();
        TestingClock clock = new TestingClock();
        UnaryOperator<TestingSettings> settings = base -> base.with("SERVICE_AGENT_APPROVAL_WAIT", "30s");
        first = TestingKlave.startOn(database, clock, settings);
        second = TestingKlave.startOn(database, clock, settings);
        bot = TestingAgents.bot(first, cluster, "prod-1", "careful", "edit", "team-a");
        first.http().send("PATCH", "/api/subjects/" + bot.id(), "{\"writes_need_approval\":true}", "Cookie",
                bot.admin());
        TestingAgents.webDeployment(cluster);
    }

    @AfterAll
    void stop() {
        first.close();
        second.close();
        TestingPostgres.drop(database);
        cluster.close();
    }

    @Test
    void aCallWaitingOnOneReplicaRunsOnceWhenThePersonApprovesOnTheOther() throws Exception {
        McpClient onA = new McpClient(first.http(), bot.token());
        ObjectNode scale = args("cluster", "prod-1", "kind", "deployments", "namespace", "team-a", "name", "web");
        scale.put("replicas", 5);
        String id = onA.call("scale", scale).result().path("structuredContent").path("params").path("id").asText();
        scale.put("approval_id", id);
        cluster.clearRequests();

        long started = System.nanoTime();
        CompletableFuture<McpClient.Answer> waiting = CompletableFuture.supplyAsync(() -> onA.call("scale", scale));
        Eventually.until("the call waiting on replica A", Duration.ofSeconds(5),
                () -> first.hooks().approvals().waiting(id) == 1);
        assertThat(waiting).isNotDone();
        HttpResponse<String> approved = second.http().send("POST", "/api/agents/requests/" + id + "/approve", "{}",
                "Cookie", bot.admin());
        McpClient.Answer done = waiting.get(20, TimeUnit.SECONDS);

        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(done.text()).startsWith("approved by root at ").contains("scaled to 5 replicas");
        // The wait is 30 s: an answer long before it came from B's decision.
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(cluster.requests().stream().filter(request -> request.method().equals("PATCH")
                && !request.query().containsKey("dryRun"))).hasSize(1);
        assertThat(new McpClient(second.http(), bot.token()).call("scale", scale).text())
                .startsWith("agent.approval_executed: ");
    }
}
