package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Each tool against the cluster simulator, through Klave (spec 3 §4 "Tools", §7, §8): what the
 * agent reads, what reaches the cluster, and the audit rows each request leaves.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpToolsTest {
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
        bot = TestingAgents.bot(klave, cluster, "prod-1", "deployer", "edit", "team-a");
        mcp = new McpClient(http, bot.token());
        TestingAgents.webDeployment(cluster);
        cluster.objects().put("""
                apiVersion: v1
                kind: Secret
                metadata:
                  name: db
                  namespace: team-a
                  annotations:
                    kubectl.kubernetes.io/last-applied-configuration: '{"data":{"password":"c2VjcmV0"}}'
                data:
                  password: c2VjcmV0
                  blob: %s
                """.formatted(Base64.getEncoder().encodeToString(new byte[] {0, 1, 2, (byte) 0xff})));
        cluster.objects().put("""
                apiVersion: v1
                kind: Pod
                metadata: {name: api-0, namespace: team-a}
                spec: {containers: [{name: api, image: api}]}
                """);
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    /** The audit rows the bot's credential left with {@code tool}, oldest first. */
    private List<JsonNode> rows(String tool) {
        JsonNode page = read(http.get("/api/audit?include_discovery=true&tool=" + tool + "&credential="
                + bot.credentialId(), "Cookie", bot.admin()).body());
        List<JsonNode> rows = new ArrayList<>();
        page.path("events").forEach(rows::add);
        return rows.reversed();
    }

    private static JsonNode read(String text) {
        try {
            return McpClient.JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** What a real 1.26 API server showed: "unreachable", and "1.30", for a cluster that answered and works from 1.27. */
    @Test
    void aClusterWithoutAggregatedDiscoveryIsSaidToBeSoWithTheVersionsThatWork() {
        cluster.olderServer(true);
        try {
            McpClient.Answer answer = mcp.call("list_api_resources", args("cluster", "prod-1"));

            assertThat(answer.isError()).isTrue();
            assertThat(answer.text()).startsWith("agent.discovery_unsupported: el cluster prod-1 no sirve el "
                    + "descubrimiento agregado").contains("1.27", "1.26 con la feature gate");
            assertThat(answer.result().path("structuredContent").path("params").path("cluster").asText())
                    .isEqualTo("prod-1");
        } finally {
            cluster.olderServer(false);
        }
    }

    @Test
    void whoamiNamesTheBotItsPermissionAndReachesNoCluster() {
        cluster.clearRequests();
        McpClient.Answer answer = mcp.call("whoami", args());

        assertThat(answer.isError()).isFalse();
        assertThat(answer.text()).contains("bot:deployer", "writes need a person's approval: no",
                "cluster prod-1: edit in namespace team-a");
        JsonNode structured = answer.result().path("structuredContent");
        assertThat(structured.path("mode").asText()).isEqualTo("bot");
        assertThat(structured.path("permissions").path(0).path("role").asText()).isEqualTo("edit");
        assertThat(cluster.requests()).isEmpty();
        assertThat(rows("whoami")).isEmpty();
    }

    @Test
    void listClustersNamesTheClustersWithAPermission() {
        McpClient.Answer answer = mcp.call("list_clusters", args());

        assertThat(answer.text()).contains("prod-1");
        assertThat(answer.result().path("structuredContent").path("clusters").path(0).path("name").asText())
                .isEqualTo("prod-1");
    }

    @Test
    void listResourcesPrintsTheClustersTableAndAuditsDiscoveryAndTheList() {
        McpClient.Answer answer = mcp.call("list_resources", args("cluster", "prod-1", "kind", "deploy",
                "namespace", "team-a"));

        assertThat(answer.isError()).as(answer.text()).isFalse();
        assertThat(answer.text()).startsWith("NAME").contains("web");
        List<JsonNode> rows = rows("list_resources");
        assertThat(rows).hasSize(3);
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.path("channel").asText()).isEqualTo("tool");
            assertThat(row.path("tool").asText()).isEqualTo("list_resources");
            assertThat(row.path("subject").asText()).isEqualTo("deployer");
        });
        // One clock for the whole test: the rows share their time, so their order is not asserted.
        assertThat(rows.stream().map(row -> row.path("path").asText())).containsExactlyInAnyOrder("/api", "/apis",
                "/apis/apps/v1/namespaces/team-a/deployments");
    }

    @Test
    void listingEveryNamespaceWithANamespacedRoleIsTheClusters403WithTheHint() {
        McpClient.Answer answer = mcp.call("list_resources", args("cluster", "prod-1", "kind", "pods"));

        assertThat(answer.isError()).isTrue();
        assertThat(answer.text()).startsWith("403 Forbidden: ").contains("audit id: ", "request_access");
    }

    @Test
    void getResourceHidesSecretValuesAndTheLastAppliedAnnotation() {
        McpClient.Answer answer = mcp.call("get_resource", args("cluster", "prod-1", "kind", "secret",
                "namespace", "team-a", "name", "db"));

        assertThat(answer.isError()).as(answer.text()).isFalse();
        assertThat(answer.text()).contains("password: \"<redacted, 6 bytes>\"", "blob: \"<redacted, 4 bytes>\"")
                .doesNotContain("c2VjcmV0", "last-applied-configuration", "managedFields");
    }

    @Test
    void readSecretDecodesTextAndMarksBinaryValues() {
        McpClient.Answer answer = mcp.call("read_secret", args("cluster", "prod-1", "namespace", "team-a",
                "name", "db"));

        assertThat(answer.isError()).as(answer.text()).isFalse();
        JsonNode data = answer.result().path("structuredContent").path("data");
        assertThat(data.path("password").asText()).isEqualTo("secret");
        assertThat(data.path("blob").asText()).isEqualTo("base64:AAEC/w==");
        assertThat(rows("read_secret")).hasSize(1);
    }

    @Test
    void getLogsTailsThePodsLogAndPreviousWithoutARestartIsTheClusters400() {
        for (int i = 1; i <= 5; i++) {
            cluster.pods().appendLog("team-a", "api-0", "api", "line " + i);
        }
        ObjectNode tail = args("cluster", "prod-1", "namespace", "team-a", "pod", "api-0");
        tail.put("tail_lines", 2);
        McpClient.Answer answer = mcp.call("get_logs", tail);
        ObjectNode previous = args("cluster", "prod-1", "namespace", "team-a", "pod", "api-0");
        previous.put("previous", true);
        McpClient.Answer none = mcp.call("get_logs", previous);

        assertThat(answer.text()).isEqualTo("line 4\nline 5\n");
        assertThat(none.isError()).isTrue();
        assertThat(none.text()).startsWith("400 BadRequest: previous terminated container \"api\" in pod \"api-0\"")
                .doesNotContain("request_access");
    }

    @Test
    void getLogsWithoutAContainerReadsTheDefaultOneOrTheOnlyOneOrListsThem() {
        cluster.objects().put("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web-1
                  namespace: team-a
                  annotations: {kubectl.kubernetes.io/default-container: app}
                spec: {containers: [{name: istio-proxy, image: proxy}, {name: app, image: web}]}
                """);
        cluster.objects().put("""
                apiVersion: v1
                kind: Pod
                metadata: {name: pair, namespace: team-a}
                spec: {containers: [{name: a, image: x}, {name: b, image: y}]}
                """);
        cluster.pods().appendLog("team-a", "web-1", "app", "served /");
        cluster.pods().appendLog("team-a", "api-0", "api", "only one");

        McpClient.Answer annotated = mcp.call("get_logs", args("cluster", "prod-1", "namespace", "team-a",
                "pod", "web-1"));
        McpClient.Answer only = mcp.call("get_logs", args("cluster", "prod-1", "namespace", "team-a",
                "pod", "api-0"));
        McpClient.Answer several = mcp.call("get_logs", args("cluster", "prod-1", "namespace", "team-a",
                "pod", "pair"));

        assertThat(annotated.text()).contains("served /").doesNotContain("istio");
        assertThat(only.text()).contains("only one");
        assertThat(several.isError()).isTrue();
        assertThat(several.text()).contains("container").contains("a, b");
        assertThat(several.result().path("structuredContent").path("code").asText()).isEqualTo("agent.argument_invalid");
    }

    @Test
    void valuesThatLookLikeCredentialsAreHiddenOutsideSecretsAndTheRestStays() {
        cluster.objects().put("""
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: wiring, namespace: team-a}
                data:
                  DATABASE_URL: postgres://app:hunter22@db.team-a:5432/orders
                  MODE: fast
                  BUILD: 3f2b1c9e-8d7a-4b6c-9e5f-1a2b3c4d5e6f
                """);
        cluster.pods().appendLog("team-a", "api-0", "api",
                "auth header eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJldmEifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg accepted");

        McpClient.Answer config = mcp.call("get_resource", args("cluster", "prod-1", "kind", "configmap",
                "namespace", "team-a", "name", "wiring"));
        McpClient.Answer logs = mcp.call("get_logs", args("cluster", "prod-1", "namespace", "team-a", "pod", "api-0"));

        assertThat(config.text()).doesNotContain("hunter22")
                .contains("postgres://app:<posible credencial oculta, 8 bytes>@db.team-a:5432/orders")
                .contains("MODE: fast").contains("3f2b1c9e-8d7a-4b6c-9e5f-1a2b3c4d5e6f");
        assertThat(logs.text()).contains("auth header <posible credencial oculta, ").contains(" accepted")
                .doesNotContain("eyJzdWIiOiJldmEifQ");
    }

    @Test
    void patchMergesIntoTheObjectAndAStrategicPatchMergesContainersByName() {
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: tuning, namespace: team-a}\n"
                + "data: {mode: fast, level: \"3\"}\n");
        McpClient.Answer merged = mcp.call("patch", args("cluster", "prod-1", "kind", "cm", "namespace", "team-a",
                "name", "tuning", "patch", "{\"data\":{\"mode\":\"slow\",\"level\":null}}"));
        ObjectNode strategic = args("cluster", "prod-1", "kind", "deployment", "namespace", "team-a", "name", "web",
                "patch", "spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: web:2\n");
        strategic.put("patch_type", "strategic");
        McpClient.Answer images = mcp.call("patch", strategic);
        ObjectNode unknown = args("cluster", "prod-1", "kind", "cm", "namespace", "team-a", "name", "tuning",
                "patch", "{}");
        unknown.put("patch_type", "json");

        assertThat(merged.isError()).as(merged.text()).isFalse();
        assertThat(merged.text()).contains("mode: slow").doesNotContain("level");
        JsonNode stored = cluster.objects().get("configmaps", "team-a", "tuning").orElseThrow();
        assertThat(stored.path("data").path("mode").asText()).isEqualTo("slow");
        assertThat(stored.path("data").has("level")).isFalse();
        assertThat(images.isError()).as(images.text()).isFalse();
        JsonNode containers = cluster.objects().get("deployments", "team-a", "web").orElseThrow().path("spec")
                .path("template").path("spec").path("containers");
        assertThat(containers).hasSize(1);
        assertThat(containers.get(0).path("image").asText()).isEqualTo("web:2");
        assertThat(mcp.call("patch", unknown).text()).startsWith("agent.argument_invalid: ").contains("patch_type");
        assertThat(rows("patch")).extracting(row -> row.path("verb").asText()).contains("patch");
    }

    @Test
    void discoveryIsAskedAgainEachCallButAnUnchangedDocumentIsNotSentAgain() {
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: twice, namespace: team-a}\n");
        ObjectNode get = args("cluster", "prod-1", "kind", "cm", "namespace", "team-a", "name", "twice");
        mcp.call("get_resource", get);
        cluster.clearRequests();

        McpClient.Answer again = mcp.call("get_resource", get);

        assertThat(again.isError()).as(again.text()).isFalse();
        assertThat(again.text()).contains("name: twice");
        List<dev.klave.simulator.RecordedRequest> discovery = cluster.requests().stream()
                .filter(request -> request.path().equals("/api") || request.path().equals("/apis")).toList();
        assertThat(discovery).as("both discovery requests, each audited (spec 3 rule 3)").hasSize(2)
                .allSatisfy(request -> assertThat(request.header("if-none-match")).isPresent());
        JsonNode rows = read(http.get("/api/audit?include_discovery=true&tool=get_resource&credential="
                + bot.credentialId(), "Cookie", bot.admin()).body()).path("events");
        assertThat(rows.findValuesAsText("status")).contains("304");
    }

    @Test
    void applyCreatesWithTheServiceFieldManagerAndAnswersTheStoredObject() {
        McpClient.Answer answer = mcp.call("apply", args("cluster", "prod-1", "manifest", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: settings, namespace: team-a}
                data: {mode: fast}
                """));

        assertThat(answer.isError()).as(answer.text()).isFalse();
        assertThat(answer.text()).contains("name: settings", "mode: fast").doesNotContain("managedFields");
        JsonNode stored = cluster.objects().get("configmaps", "team-a", "settings").orElseThrow();
        assertThat(stored.path("metadata").path("managedFields").path(0).path("manager").asText())
                .isEqualTo("service-mcp");
        assertThat(rows("apply").stream().map(row -> row.path("verb").asText())).contains("patch");
    }

    @Test
    void applyOfASecretAnswersItsValuesHidden() {
        McpClient.Answer answer = mcp.call("apply", args("cluster", "prod-1", "manifest", """
                {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "token", "namespace": "team-a"},
                 "stringData": {"value": "abc"}}
                """));

        assertThat(answer.isError()).as(answer.text()).isFalse();
        assertThat(answer.text()).contains("value: \"<redacted, 3 bytes>\"").doesNotContain("YWJj");
    }

    @Test
    void scaleAndRolloutRestartChangeTheDeployment() {
        ObjectNode scale = args("cluster", "prod-1", "kind", "deployments", "namespace", "team-a", "name", "web");
        scale.put("replicas", 4);
        McpClient.Answer scaled = mcp.call("scale", scale);
        McpClient.Answer restarted = mcp.call("rollout_restart", args("cluster", "prod-1", "kind", "deploy",
                "namespace", "team-a", "name", "web"));

        assertThat(scaled.isError()).as(scaled.text()).isFalse();
        assertThat(scaled.text()).contains("scaled to 4 replicas");
        assertThat(restarted.isError()).as(restarted.text()).isFalse();
        JsonNode web = cluster.objects().get("deployments", "team-a", "web").orElseThrow();
        assertThat(web.path("spec").path("replicas").asInt()).isEqualTo(4);
        assertThat(web.path("spec").path("template").path("metadata").path("annotations")
                .has("kubectl.kubernetes.io/restartedAt")).isTrue();
        assertThat(rows("scale").stream().map(row -> row.path("path").asText()))
                .contains("/apis/apps/v1/namespaces/team-a/deployments/web/scale");
    }

    @Test
    void rolloutRestartRefusesWhatIsNotAWorkload() {
        McpClient.Answer answer = mcp.call("rollout_restart", args("cluster", "prod-1", "kind", "configmap",
                "namespace", "team-a", "name", "settings"));

        assertThat(answer.isError()).isTrue();
        assertThat(answer.text()).startsWith("agent.not_rollable: ");
        assertThat(answer.result().path("structuredContent").path("code").asText()).isEqualTo("agent.not_rollable");
    }

    @Test
    void deleteResourceDeletesOneObject() {
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: old, namespace: team-a}\n");

        McpClient.Answer answer = mcp.call("delete_resource", args("cluster", "prod-1", "kind", "cm",
                "namespace", "team-a", "name", "old"));

        assertThat(answer.isError()).as(answer.text()).isFalse();
        assertThat(cluster.objects().get("configmaps", "team-a", "old")).isEmpty();
    }

    @Test
    void anUnknownKindOrClusterIsTheServicesOwnError() {
        McpClient.Answer kind = mcp.call("list_resources", args("cluster", "prod-1", "kind", "gizmos"));
        McpClient.Answer unknownCluster = mcp.call("list_resources", args("cluster", "elsewhere", "kind", "pods"));
        McpClient.Answer badArgument = mcp.call("list_resources", args("cluster", "prod-1", "kind", "pods",
                "colour", "red"));

        assertThat(kind.text()).startsWith("agent.kind_unknown: ");
        assertThat(unknownCluster.text()).startsWith("agent.cluster_unknown: ");
        assertThat(badArgument.text()).startsWith("agent.argument_invalid: ");
    }

    @Test
    void aKindTwoGroupsServeIsTheCoreOneUnlessApiVersionSaysOtherwise() {
        McpClient.Answer core = mcp.call("list_resources", args("cluster", "prod-1", "kind", "events",
                "namespace", "team-a"));
        McpClient.Answer other = mcp.call("list_resources", args("cluster", "prod-1", "kind", "events",
                "api_version", "events.k8s.io/v1", "namespace", "team-a"));

        assertThat(core.isError()).as(core.text()).isFalse();
        // The edit role reads core events only (as in Kubernetes): the cluster itself says so.
        assertThat(other.text()).startsWith("403 Forbidden: ").contains("events.k8s.io");
        List<JsonNode> rows = rows("list_resources");
        assertThat(rows.stream().map(row -> row.path("path").asText())).contains(
                "/api/v1/namespaces/team-a/events", "/apis/events.k8s.io/v1/namespaces/team-a/events");
    }

    @Test
    void requestAccessRefusesClusterAdminAndOutOfRangeValues() {
        ObjectNode admin = args("cluster", "prod-1", "namespace", "*", "role", "cluster-admin", "reason", "x");
        admin.put("minutes", 30);
        ObjectNode tooLong = args("cluster", "prod-1", "namespace", "team-a", "role", "edit", "reason", "x");
        tooLong.put("minutes", 481);
        ObjectNode noReason = args("cluster", "prod-1", "namespace", "team-a", "role", "edit", "reason", " ");
        noReason.put("minutes", 30);

        assertThat(mcp.call("request_access", admin).text()).startsWith("agent.access_beyond_ceiling: ");
        McpClient.Answer minutes = mcp.call("request_access", tooLong);
        assertThat(minutes.text()).startsWith("agent.access_bad_minutes: ");
        assertThat(minutes.result().path("structuredContent").path("params").path("max").asInt()).isEqualTo(480);
        assertThat(mcp.call("request_access", noReason).text()).startsWith("agent.access_reason: ");
    }

    @Test
    void anAnswerOver256KibIsCutAndSaysSo() {
        cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: team-a}\ndata: {blob: "
                + "x".repeat(300 * 1024) + "}\n");

        McpClient.Answer answer = mcp.call("get_resource", args("cluster", "prod-1", "kind", "cm", "namespace",
                "team-a", "name", "big"));

        assertThat(answer.text().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(256 * 1024);
        assertThat(answer.text()).endsWith("the object is too large to show whole]");
    }

    @Test
    void listResourcesPagesWithLimitAndContinue() {
        for (String name : new String[] {"page-a", "page-b", "page-c"}) {
            cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name
                    + ", namespace: team-a, labels: {paging: \"yes\"}}\n");
        }
        ObjectNode first = args("cluster", "prod-1", "kind", "configmaps", "namespace", "team-a", "label_selector",
                "paging=yes");
        first.put("limit", 2);
        McpClient.Answer page = mcp.call("list_resources", first);
        String next = page.result().path("structuredContent").path("continue").asText();
        first.put("continue", next);
        McpClient.Answer second = mcp.call("list_resources", first);

        assertThat(next).isNotEmpty();
        assertThat(page.text()).contains("call again with continue=" + next);
        assertThat(second.isError()).as(second.text()).isFalse();
        assertThat(page.text()).contains("page-a", "page-b").doesNotContain("page-c");
        assertThat(second.text()).contains("page-c").doesNotContain("page-a");
    }
}
