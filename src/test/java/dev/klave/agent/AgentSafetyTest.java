package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.RecordedRequest;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent-safety review's findings, each as the attacker sent it: a held write's dry run is a dry
 * run whatever the name holds; a refused argument is a tool result whose row is complete and which
 * leaks no open call; the target the cluster and the approver see is the one named.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentSafetyTest {
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private TestingAgents.Bot bot;
    private McpClient mcp;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_AGENT_APPROVAL_WAIT", "0s"));
        http = klave.http();
        bot = TestingAgents.bot(klave, cluster, "prod-1", "careful", "edit", "team-a");
        HttpResponse<String> set = http.send("PATCH", "/api/subjects/" + bot.id(), "{\"writes_need_approval\":true}",
                "Cookie", bot.admin());
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        mcp = new McpClient(http, bot.token());
    }

    @BeforeEach
    void objects() {
        TestingAgents.webDeployment(cluster);
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-delete-me, namespace: team-a}\n"
                + "data: {a: b}\n");
        cluster.clearRequests();
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    private List<RecordedRequest> writes() {
        return cluster.requests().stream().filter(request -> !request.method().equals("GET")).toList();
    }

    @Test
    void aHashInANameLeavesTheHeldDeleteADryRunOfThatName() {
        McpClient.Answer answer = mcp.call("delete_resource", args("cluster", "prod-1", "kind", "configmaps",
                "namespace", "team-a", "name", "cm-delete-me#"));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(cluster.objects().get("configmaps", "team-a", "cm-delete-me")).isPresent();
        assertThat(writes()).isNotEmpty().allSatisfy(request -> {
            assertThat(request.target()).isEqualTo("/api/v1/namespaces/team-a/configmaps/cm-delete-me%23?dryRun=All");
            assertThat(request.path()).isEqualTo("/api/v1/namespaces/team-a/configmaps/cm-delete-me#");
        });
    }

    /** What a real API server showed: a denied write's preview was audited as the write itself. */
    @Test
    void aHeldWritesPreviewIsAuditedAsADryRun() {
        ObjectNode scale = args("cluster", "prod-1", "kind", "deployments", "namespace", "team-a", "name", "web");
        scale.put("replicas", 6);

        assertThat(mcp.call("scale", scale).text()).startsWith("agent.approval_pending: ");

        JsonNode rows = read(http.get("/api/audit?tool=scale&verb=patch&credential=" + bot.credentialId(), "Cookie",
                bot.admin()).body()).path("events");
        assertThat(rows).isNotEmpty().allSatisfy(row -> assertThat(row.path("dry_run").asBoolean()).isTrue());
    }

    @Test
    void aQueryInANameStaysInTheNameAndTheDryRunStaysAParameter() {
        mcp.call("delete_resource", args("cluster", "prod-1", "kind", "configmaps", "namespace", "team-a", "name",
                "cm-race?x="));

        assertThat(writes()).isNotEmpty().allSatisfy(request -> {
            assertThat(request.target()).isEqualTo("/api/v1/namespaces/team-a/configmaps/cm-race%3Fx=?dryRun=All");
            assertThat(request.query().get("dryRun")).containsExactly("All");
        });
    }

    @Test
    void aScaleOfANameWithAHashChangesNoReplicas() {
        ObjectNode scale = args("cluster", "prod-1", "kind", "deployments", "namespace", "team-a", "name", "web#");
        scale.put("replicas", 9);

        mcp.call("scale", scale);
        mcp.call("rollout_restart", args("cluster", "prod-1", "kind", "deployments", "namespace", "team-a", "name",
                "web#"));

        assertThat(cluster.objects().get("deployments", "team-a", "web").orElseThrow().path("spec").path("replicas")
                .asInt()).isEqualTo(2);
        assertThat(writes()).allMatch(request -> request.query().getOrDefault("dryRun", List.of())
                .equals(List.of("All")));
    }

    /** The agent-safety review: at its 20 waiting requests the account's write ran, then was refused. */
    @Test
    void atItsTwentyWaitingRequestsAnAccountsNextWriteSendsNothing() {
        TestingAgents.Bot busy = TestingAgents.another(klave, cluster, bot.admin(), "prod-1", "busy", "edit", "team-a");
        assertThat(http.send("PATCH", "/api/subjects/" + busy.id(), "{\"writes_need_approval\":true}", "Cookie",
                bot.admin()).statusCode()).isEqualTo(200);
        McpClient agent = new McpClient(http, busy.token());
        for (int replicas = 10; replicas < 30; replicas++) {
            ObjectNode scale = args("cluster", "prod-1", "kind", "deployments", "namespace", "team-a", "name", "web");
            scale.put("replicas", replicas);
            assertThat(agent.call("scale", scale).text()).startsWith("agent.approval_pending: ");
        }
        cluster.clearRequests();
        ObjectNode scale = args("cluster", "prod-1", "kind", "deployments", "namespace", "team-a", "name", "web");
        scale.put("replicas", 99);

        McpClient.Answer refused = agent.call("scale", scale);

        assertThat(refused.text()).startsWith("agent.too_many_pending: ");
        assertThat(writes()).isEmpty();
        assertThat(cluster.objects().get("deployments", "team-a", "web").orElseThrow().path("spec").path("replicas")
                .asInt()).isEqualTo(2);
    }

    @Test
    void aNamespaceWithAHashIsRefusedAsAToolResultAndNothingIsSent() {
        McpClient.Answer answer = mcp.call("delete_resource", args("cluster", "prod-1", "kind", "configmaps",
                "namespace", "team-a#", "name", "cm-delete-me"));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.isError()).isTrue();
        assertThat(answer.text()).startsWith("agent.argument_invalid: argumento namespace no válido");
        assertThat(answer.result().path("structuredContent").path("code").asText()).isEqualTo("agent.argument_invalid");
        assertThat(cluster.requests()).allMatch(request -> request.path().equals("/api")
                || request.path().equals("/apis"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a/b", "..", ".", "100%"})
    void aNameNoPathCanHoldIsAToolResultNotAnHttpError(String name) {
        McpClient.Answer answer = mcp.call("get_resource", args("cluster", "prod-1", "kind", "configmaps",
                "namespace", "team-a", "name", name));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.isError()).isTrue();
        JsonNode structured = answer.result().path("structuredContent");
        assertThat(structured.path("code").asText()).isEqualTo("agent.argument_invalid");
        assertThat(structured.path("params").path("name").asText()).isEqualTo("name");
        assertThat(structured.path("error").asText()).isNotEmpty();
    }

    @Test
    void charactersAUriRefusesAreEncodedTheRowCompletesAndNoOpenCallLeaks() {
        int before = klave.hooks().openCalls().size();

        McpClient.Answer answer = mcp.call("get_resource", args("cluster", "prod-1", "kind", "configmaps",
                "namespace", "team-a", "name", "a|b^{c}[d]\"e<f>`"));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.text()).contains("404");
        assertThat(klave.hooks().openCalls().size()).isEqualTo(before);
        RecordedRequest sent = cluster.requests().getLast();
        assertThat(sent.target()).isEqualTo("/api/v1/namespaces/team-a/configmaps/a%7Cb%5E%7Bc%7D%5Bd%5D%22e%3Cf%3E%60");
        JsonNode rows = read(http.get("/api/audit?include_discovery=true&tool=get_resource&credential="
                + bot.credentialId(), "Cookie", bot.admin()).body()).path("events");
        assertThat(rows).isNotEmpty().allSatisfy(row -> assertThat(row.path("status").isInt()).as(row.toString())
                .isTrue());
        assertThat(rows.findValuesAsText("name")).contains("a|b^{c}[d]\"e<f>`");
    }

    @Test
    void aSecretAskedByANameThatReadsAsTheCollectionShowsNoValue() {
        cluster.objects().put("apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: team-a}\n"
                + "data: {password: aHVudGVyMg==}\n");

        for (String name : List.of("?", "#", "?limit=5")) {
            McpClient.Answer answer = mcp.call("get_resource", args("cluster", "prod-1", "kind", "secrets",
                    "namespace", "team-a", "name", name));

            assertThat(answer.body().toString()).doesNotContain("aHVudGVyMg==").doesNotContain("hunter2");
            assertThat(cluster.requests().getLast().path()).isEqualTo("/api/v1/namespaces/team-a/secrets/" + name);
        }
    }

    private static JsonNode read(String text) {
        try {
            return McpClient.JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
