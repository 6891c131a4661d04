package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.RecordedRequest;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A bot whose writes need approval (spec 3 §3 "Write request", §4 "Write approval flow"): the dry
 * run, the held request, the text fallback and the URL elicitation, the wait, and one execution.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpApprovalTest {
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private TestingAgents.Bot bot;
    private McpClient mcp;
    private final TestingClock clock = new TestingClock();

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(clock, settings -> settings.with("SERVICE_AGENT_APPROVAL_WAIT",
                "3s"));
        http = klave.http();
        bot = TestingAgents.bot(klave, cluster, "prod-1", "careful", "edit", "team-a");
        HttpResponse<String> set = http.send("PATCH", "/api/subjects/" + bot.id(), "{\"writes_need_approval\":true}",
                "Cookie", bot.admin());
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        mcp = new McpClient(http, bot.token());
    }

    @BeforeEach
    void freshDeployment() {
        TestingAgents.webDeployment(cluster);
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    private static ObjectNode scaleTo(int replicas) {
        ObjectNode arguments = args("cluster", "prod-1", "kind", "deployment", "namespace", "team-a", "name", "web");
        arguments.put("replicas", replicas);
        return arguments;
    }

    private int replicas() {
        return cluster.objects().get("deployments", "team-a", "web").orElseThrow().path("spec").path("replicas")
                .asInt();
    }

    private void decide(String id, String decision) {
        HttpResponse<String> answer = http.send("POST", "/api/agents/requests/" + id + "/" + decision, "{}",
                "Cookie", bot.admin());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    private long sentScales() {
        return cluster.requests().stream().filter(request -> request.method().equals("PATCH")
                && request.path().endsWith("/deployments/web/scale") && !request.query().containsKey("dryRun"))
                .count();
    }

    @Test
    void aHeldWriteIsDryRunStoredAndAnsweredPendingWithItsLink() {
        cluster.clearRequests();
        McpClient.Answer first = mcp.call("scale", scaleTo(5));
        McpClient.Answer again = mcp.call("scale", scaleTo(5));

        assertThat(first.isError()).isTrue();
        assertThat(first.text()).startsWith("agent.approval_pending: ");
        JsonNode params = first.result().path("structuredContent").path("params");
        String id = params.path("id").asText();
        assertThat(params.path("url").asText()).isEqualTo("http://localhost:8080/agents/requests/" + id);
        assertThat(params.path("expires_at").asText()).isNotEmpty();
        assertThat(again.result().path("structuredContent").path("params").path("id").asText()).isEqualTo(id);
        assertThat(cluster.requests()).anyMatch(request -> request.query().containsKey("dryRun"));
        assertThat(sentScales()).isZero();
        assertThat(replicas()).isEqualTo(2);
        JsonNode preview = read(http.get("/api/agents/requests/" + id, "Cookie", bot.admin()).body()).path("preview");
        assertThat(preview.path("changes").toString()).contains("spec.replicas");
    }

    @Test
    void anApprovedWriteRunsOnceAndSaysWhoApprovedIt() {
        String id = pendingId(mcp.call("scale", scaleTo(3)));
        decide(id, "approve");
        cluster.clearRequests();

        ObjectNode resume = scaleTo(3);
        resume.put("approval_id", id);
        McpClient.Answer done = mcp.call("scale", resume);
        McpClient.Answer twice = mcp.call("scale", resume);

        assertThat(done.isError()).as(done.text()).isFalse();
        assertThat(done.text()).startsWith("approved by root at ").contains("scaled to 3 replicas");
        assertThat(twice.text()).startsWith("agent.approval_executed: ");
        assertThat(replicas()).isEqualTo(3);
        assertThat(sentScales()).isEqualTo(1);
    }

    @Test
    void aDeniedWriteSaysSoAndChangesNothing() {
        String id = pendingId(mcp.call("scale", scaleTo(7)));
        decide(id, "deny");

        ObjectNode resume = scaleTo(7);
        resume.put("approval_id", id);
        assertThat(mcp.call("scale", resume).text()).startsWith("agent.approval_denied: ");
        assertThat(replicas()).isEqualTo(2);
    }

    @Test
    void anApprovalIdWithOtherArgumentsIsAMismatch() {
        String id = pendingId(mcp.call("scale", scaleTo(8)));
        decide(id, "approve");

        ObjectNode other = scaleTo(9);
        other.put("approval_id", id);
        assertThat(mcp.call("scale", other).text()).startsWith("agent.approval_mismatch: ");
        assertThat(replicas()).isEqualTo(2);
    }

    @Test
    void aPendingCallWaitsAndWakesAtOnceWhenThePersonDecides() throws Exception {
        String id = pendingId(mcp.call("scale", scaleTo(4)));
        ObjectNode resume = scaleTo(4);
        resume.put("approval_id", id);

        long started = System.nanoTime();
        CompletableFuture<McpClient.Answer> waiting = CompletableFuture.supplyAsync(() -> mcp.call("scale", resume));
        Eventually.until("the call waiting for the person", Duration.ofSeconds(5),
                () -> klave.hooks().approvals().waiting(id) == 1);
        decide(id, "approve");
        McpClient.Answer done = waiting.get(10, TimeUnit.SECONDS);

        assertThat(done.text()).startsWith("approved by root");
        // The wait is 3 s: an answer well before it came from the decision, not the time-out.
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2500));
    }

    @Test
    void aWaitThatEndsWithoutADecisionAsksAgain() {
        String id = pendingId(mcp.call("scale", scaleTo(6)));
        ObjectNode resume = scaleTo(6);
        resume.put("approval_id", id);

        McpClient.Answer answer = mcp.call("scale", resume);

        assertThat(answer.text()).startsWith("agent.approval_pending: ");
        assertThat(replicas()).isEqualTo(2);
    }

    @Test
    void anApplyApprovedAfterTheObjectChangedGetsTheClusters409() {
        ObjectNode apply = args("cluster", "prod-1", "manifest", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: flags, namespace: team-a}
                data: {mode: slow}
                """);
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flags, namespace: team-a}\n"
                + "data: {mode: fast}\n");
        String id = pendingId(mcp.call("apply", apply));
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flags, namespace: team-a}\n"
                + "data: {mode: other}\n");
        decide(id, "approve");

        apply.put("approval_id", id);
        McpClient.Answer answer = mcp.call("apply", apply);

        assertThat(answer.isError()).isTrue();
        assertThat(answer.text()).startsWith("approved by root at ").contains("409 Conflict");
        assertThat(cluster.objects().get("configmaps", "team-a", "flags").orElseThrow().path("data").path("mode")
                .asText()).isEqualTo("other");
        assertThat(mcp.call("apply", apply).text()).startsWith("agent.approval_executed: ");
    }

    @Test
    void aPatchIsHeldLikeApplyAndRunsOnceApprovedUnlessTheObjectChangedMeanwhile() {
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: knobs, namespace: team-a}\n"
                + "data: {mode: fast}\n");
        ObjectNode patch = args("cluster", "prod-1", "kind", "configmap", "namespace", "team-a", "name", "knobs",
                "patch", "{\"data\":{\"mode\":\"slow\"}}");
        String id = pendingId(mcp.call("patch", patch));
        assertThat(cluster.objects().get("configmaps", "team-a", "knobs").orElseThrow().path("data").path("mode")
                .asText()).as("held: nothing written").isEqualTo("fast");
        decide(id, "approve");
        patch.put("approval_id", id);
        McpClient.Answer done = mcp.call("patch", patch);

        assertThat(done.text()).startsWith("approved by root at ").contains("mode: slow");
        assertThat(cluster.objects().get("configmaps", "team-a", "knobs").orElseThrow().path("data").path("mode")
                .asText()).isEqualTo("slow");

        ObjectNode again = args("cluster", "prod-1", "kind", "configmap", "namespace", "team-a", "name", "knobs",
                "patch", "{\"data\":{\"mode\":\"quiet\"}}");
        String second = pendingId(mcp.call("patch", again));
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: knobs, namespace: team-a}\n"
                + "data: {mode: other}\n");
        decide(second, "approve");
        again.put("approval_id", second);
        McpClient.Answer stale = mcp.call("patch", again);

        assertThat(stale.isError()).isTrue();
        assertThat(stale.text()).contains("409 Conflict");
        assertThat(cluster.objects().get("configmaps", "team-a", "knobs").orElseThrow().path("data").path("mode")
                .asText()).isEqualTo("other");
    }

    @Test
    void aHeldSecretIsStoredSealedAndItsPreviewHidesTheValues() {
        ObjectNode apply = args("cluster", "prod-1", "manifest", """
                apiVersion: v1
                kind: Secret
                metadata: {name: api-key, namespace: team-a}
                stringData: {key: hunter2-value}
                """);
        String id = pendingId(mcp.call("apply", apply));

        String stored = klave.hooks().approvals().find(id).orElseThrow().call().body().orElseThrow();
        String page = http.get("/api/agents/requests/" + id, "Cookie", bot.admin()).body();
        assertThat(stored).doesNotContain("hunter2");
        assertThat(page).doesNotContain("hunter2").contains("<redacted, 13 bytes");
        decide(id, "approve");
        apply.put("approval_id", id);
        McpClient.Answer done = mcp.call("apply", apply);

        assertThat(done.text()).startsWith("approved by root").doesNotContain("hunter2");
        assertThat(cluster.objects().get("secrets", "team-a", "api-key").orElseThrow().path("data").path("key")
                .asText()).isEqualTo(java.util.Base64.getEncoder().encodeToString("hunter2-value".getBytes()));
    }

    @Test
    void aWriteWhosePreviewWouldPass256KibIsRefused() {
        ObjectNode apply = args("cluster", "prod-1", "manifest", "apiVersion: v1\nkind: ConfigMap\n"
                + "metadata: {name: huge, namespace: team-a}\ndata: {blob: " + "y".repeat(200 * 1024) + "}\n");

        McpClient.Answer answer = mcp.call("apply", apply);

        assertThat(answer.text()).startsWith("agent.preview_too_large: ");
        assertThat(cluster.objects().get("configmaps", "team-a", "huge")).isEmpty();
    }

    @Test
    void anApprovedWriteOfACredentialRevokedDuringTheWaitDoesNotRun() throws Exception {
        TestingAgents.Bot revoked = TestingAgents.another(klave, cluster, bot.admin(), "prod-1", "short-lived",
                "edit", "team-a");
        http.send("PATCH", "/api/subjects/" + revoked.id(), "{\"writes_need_approval\":true}", "Cookie",
                bot.admin());
        McpClient agent = new McpClient(http, revoked.token());
        String id = pendingId(agent.call("scale", scaleTo(9)));
        ObjectNode resume = scaleTo(9);
        resume.put("approval_id", id);

        CompletableFuture<McpClient.Answer> waiting = CompletableFuture.supplyAsync(() -> agent.call("scale", resume));
        Eventually.until("the call waiting for the person", Duration.ofSeconds(5),
                () -> klave.hooks().approvals().waiting(id) == 1);
        assertThat(http.send("POST", "/api/credentials/" + revoked.credentialId() + "/revoke", "{}", "Cookie",
                bot.admin()).statusCode()).isEqualTo(200);
        // The wait is an open call of the agent's (the gateway issue): the revocation cuts it at once,
        // before anyone decides. (Approving first raced the cut: the woken call then met the revoked
        // credential itself — also refused, but not the cut this test is about.)
        McpClient.Answer answer = waiting.get(10, TimeUnit.SECONDS);
        // Issue 51 §19: approving it now says it can no longer run, rather than "approved" with nothing run.
        HttpResponse<String> approving = http.send("POST", "/api/agents/requests/" + id + "/approve", "{}", "Cookie",
                bot.admin());
        assertThat(approving.statusCode()).as(approving.body()).isEqualTo(409);
        assertThat(approving.body()).contains("la escritura ya no se puede ejecutar");

        assertThat(answer.text()).startsWith("CREDENTIAL_NO_LONGER_VALID: ");
        assertThat(agent.call("scale", resume).status()).as("a revoked credential calls no more").isEqualTo(401);
        assertThat(replicas()).isEqualTo(2);
        assertThat(klave.hooks().approvals().find(id).orElseThrow().executedAt()).isEmpty();
    }

    @Test
    void thePreviewMarksASecretValueTheWriteChangesEvenAtTheSameSize() {
        cluster.objects().put("apiVersion: v1\nkind: Secret\nmetadata: {name: pair, namespace: team-a}\n"
                + "data: {user: YWRtaW4=, password: c2VjcmV0}\n");
        String id = pendingId(mcp.call("apply", args("cluster", "prod-1", "manifest", """
                apiVersion: v1
                kind: Secret
                metadata: {name: pair, namespace: team-a}
                stringData: {password: public}
                """)));

        JsonNode preview = read(http.get("/api/agents/requests/" + id, "Cookie", bot.admin()).body()).path("preview");

        assertThat(preview.path("current").path("data").path("password").asText()).isEqualTo("<redacted, 6 bytes>");
        assertThat(preview.path("result").path("data").path("password").asText())
                .isEqualTo("<redacted, 6 bytes, changed>");
        assertThat(preview.path("result").path("data").path("user").asText()).isEqualTo("<redacted, 5 bytes>");
        assertThat(preview.toString()).doesNotContain("c2VjcmV0", "cHVibGlj", "public");
    }

    @Test
    void anExpiredRequestSaysSoAndTheCallAsksAgain() {
        String id = pendingId(mcp.call("scale", scaleTo(14)));
        clock.advance(java.time.Duration.ofMinutes(61));
        ObjectNode resume = scaleTo(14);
        resume.put("approval_id", id);

        assertThat(mcp.call("scale", resume).text()).startsWith("agent.approval_expired: ");
        String again = pendingId(mcp.call("scale", scaleTo(14)));
        assertThat(again).isNotEqualTo(id);
        assertThat(replicas()).isEqualTo(2);
    }

    @Test
    void aModernClientThatDeclaresUrlElicitationGetsInputRequired() {
        ObjectNode capabilities = McpClient.JSON.createObjectNode();
        capabilities.putObject("elicitation").putObject("url");
        ObjectNode params = McpClient.JSON.createObjectNode();
        params.put("name", "scale");
        params.set("arguments", scaleTo(11));

        McpClient.Answer first = mcp.modern("tools/call", params, capabilities);

        JsonNode result = first.result();
        assertThat(result.path("resultType").asText()).isEqualTo("input_required");
        JsonNode elicitation = result.path("inputRequests").path("approval");
        assertThat(elicitation.path("method").asText()).isEqualTo("elicitation/create");
        assertThat(elicitation.path("params").path("mode").asText()).isEqualTo("url");
        assertThat(elicitation.path("params").path("message").asText())
                .isEqualTo("Approve in Klave: scale deployments/web in team-a (prod-1)");
        String url = elicitation.path("params").path("url").asText();
        String id = url.substring(url.lastIndexOf('/') + 1);
        String state = result.path("requestState").asText();

        ObjectNode declined = params.deepCopy();
        declined.put("requestState", state);
        declined.putObject("inputResponses").putObject("approval").put("action", "decline");
        assertThat(mcp.modern("tools/call", declined, capabilities).text()).startsWith("agent.approval_pending: ");

        ObjectNode tampered = params.deepCopy();
        tampered.put("requestState", state.substring(0, state.length() - 2) + "xx");
        McpClient.Answer forged = mcp.modern("tools/call", tampered, capabilities);
        assertThat(forged.errorCode()).isEqualTo(-32602);

        ObjectNode moved = params.deepCopy();
        moved.set("arguments", scaleTo(12));
        moved.put("requestState", state);
        assertThat(mcp.modern("tools/call", moved, capabilities).errorCode()).isEqualTo(-32602);

        decide(id, "approve");
        ObjectNode accepted = params.deepCopy();
        accepted.put("requestState", state);
        accepted.putObject("inputResponses").putObject("approval").put("action", "accept");
        McpClient.Answer done = mcp.modern("tools/call", accepted, capabilities);
        assertThat(done.result().path("resultType").asText()).isEqualTo("complete");
        assertThat(done.text()).startsWith("approved by root");
        assertThat(replicas()).isEqualTo(11);
        McpClient.Answer replayed = mcp.modern("tools/call", accepted, capabilities);
        assertThat(replayed.text()).startsWith("agent.approval_executed: ");
    }

    @Test
    void aClientWithoutUrlElicitationGetsTheTextFallbackOnTheModernRevisionToo() {
        ObjectNode params = McpClient.JSON.createObjectNode();
        params.put("name", "scale");
        params.set("arguments", scaleTo(13));

        McpClient.Answer answer = mcp.modern("tools/call", params);

        assertThat(answer.result().path("resultType").asText()).isEqualTo("complete");
        assertThat(answer.text()).startsWith("agent.approval_pending: ");
    }

    @Test
    void anApprovedAccessRequestThatWritesLiftsTheHold() {
        // A bot of its own: the grant the request brings would lift the holds of the other tests.
        TestingAgents.Bot lifted = TestingAgents.another(klave, cluster, bot.admin(), "prod-1", "lifted", "view",
                "team-a");
        http.send("PATCH", "/api/subjects/" + lifted.id(), "{\"writes_need_approval\":true}", "Cookie", bot.admin());
        McpClient agent = new McpClient(http, lifted.token());
        ObjectNode ask = args("cluster", "prod-1", "namespace", "team-a", "role", "edit", "reason", "deploy fix");
        ask.put("minutes", 30);
        // Spec 3 §3: a dry run the cluster rejects is the answer, and nothing is held.
        assertThat(agent.call("scale", scaleTo(1)).text()).startsWith("403 Forbidden: ");

        McpClient.Answer requested = agent.call("request_access", ask);
        String id = requested.result().path("structuredContent").path("id").asText();
        decide(id, "approve");
        dev.klave.testing.Eventually.until("the approved grant in the cluster", Duration.ofSeconds(10),
                () -> cluster.objects().get("rolebindings", "team-a", "klave-edit").isPresent());
        McpClient.Answer whoami = agent.call("whoami", args());
        McpClient.Answer scaled = agent.call("scale", scaleTo(1));

        assertThat(whoami.text()).contains("edit in namespace team-a, until ");
        assertThat(scaled.isError()).as(scaled.text()).isFalse();
        assertThat(replicas()).isEqualTo(1);
    }

    private static String pendingId(McpClient.Answer answer) {
        assertThat(answer.text()).startsWith("agent.approval_pending: ");
        return answer.result().path("structuredContent").path("params").path("id").asText();
    }

    private static JsonNode read(String text) {
        try {
            return McpClient.JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
