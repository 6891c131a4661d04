package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.KubeNames;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.RecordedRequest;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Arbitrary text in every argument that becomes part of a cluster request, and in the proxy's
 * path, against a running Klave and the cluster simulator: the cluster receives either nothing or
 * exactly the encoded parts; while a write is held nothing but reads and {@code dryRun=All}
 * requests reach it; a refusal is a tool result, never an HTTP error; no Secret value leaves
 * except through {@code read_secret}.
 */
class HostileArgumentsProperties {
    private static final String SECRET_VALUE = "hunter2-do-not-leak";
    private static ClusterSimulator cluster;
    private static TestingKlave klave;
    private static TestingHttp http;
    private static TestingAgents.Bot bot;
    private static McpClient mcp;

    @BeforeContainer
    static void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_AGENT_APPROVAL_WAIT", "0s")
                .with("SERVICE_MCP_RATE_LIMIT", "100000"));
        http = klave.http();
        bot = TestingAgents.bot(klave, cluster, "prod-1", "careful", "edit", "team-a");
        HttpResponse<String> set = http.send("PATCH", "/api/subjects/" + bot.id(), "{\"writes_need_approval\":true}",
                "Cookie", bot.admin());
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        mcp = new McpClient(http, bot.token());
        TestingAgents.webDeployment(cluster);
        cluster.objects().put("apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: team-a}\ntype: Opaque\n"
                + "data: {password: " + Base64.getEncoder().encodeToString(SECRET_VALUE.getBytes(StandardCharsets.UTF_8))
                + "}\n");
    }

    @AfterContainer
    static void stop() {
        klave.close();
        cluster.close();
    }

    /** Text rich in what URIs, Kubernetes and Go's query parser read specially, and anything else. */
    @Provide
    Arbitrary<String> hostile() {
        Arbitrary<String> special = Arbitraries.strings().withChars("#?/%&=;+ .:@\"<>[]^`{|}\\\t\n~!$'()*,")
                .withCharRange('a', 'c').ofMaxLength(10);
        Arbitrary<String> known = Arbitraries.of("web#", "web?dryRun=None&x=", "team-a#", "team-a/../kube-system",
                "%2e%2e", "..", ".", "?", "#", "db", "web", "a/b", "team-a", "ñ", "%", "cm-race?x=");
        Arbitrary<String> pieces = Arbitraries.oneOf(special, known, Arbitraries.strings().all().ofMaxLength(6));
        // Not empty: an empty optional argument means "absent" (all namespaces, no name). Well-formed:
        // a lone surrogate has no UTF-8 form, so the client's JSON would send "?" in its place and
        // the test would judge a name other than the one Klave received (ClusterRequestProperties
        // covers lone surrogates in the builders themselves).
        return pieces.list().ofMinSize(1).ofMaxSize(3).map(parts -> String.join("", parts))
                .filter(text -> !text.isEmpty() && KubeNames.wellFormed(text));
    }

    @Provide
    Arbitrary<String> writeTool() {
        return Arbitraries.of("delete_resource", "scale", "rollout_restart");
    }

    @Property(tries = 150)
    void aHeldWriteSendsOnlyReadsAndDryRunsOfExactlyTheNamedObject(@ForAll("writeTool") String tool,
            @ForAll("hostile") String namespace, @ForAll("hostile") String name) {
        ObjectNode arguments = args("cluster", "prod-1", "kind", "deployments", "namespace", namespace, "name", name);
        if (tool.equals("scale")) {
            arguments.put("replicas", 9);
        }
        cluster.clearRequests();

        McpClient.Answer answer = mcp.call(tool, arguments);

        assertThat(answer.status()).as(answer.body().toString()).isEqualTo(200);
        assertThat(answer.isError()).as(answer.text()).isTrue();
        List<RecordedRequest> sent = cluster.requests();
        assertThat(sent).as("no write without dryRun=All while it is held").allMatch(request -> request.method()
                .equals("GET") || request.query().getOrDefault("dryRun", List.of()).equals(List.of("All")));
        boolean named = KubeNames.isNamespace(namespace) && KubeNames.isPathSegment(name);
        for (RecordedRequest request : sent) {
            if (request.path().equals("/api") || request.path().equals("/apis")) {
                continue;
            }
            assertThat(named).as("a request sent for arguments the rules refuse: " + request.target()).isTrue();
            ClusterPath object = ClusterPath.of("apis", "apps", "v1", "namespaces", namespace, "deployments", name);
            String target = request.target();
            String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
            assertThat(path).isIn(object.encoded(), object.append("scale").encoded());
        }
        assertThat(cluster.objects().get("deployments", "team-a", "web").orElseThrow().path("spec").path("replicas")
                .asInt()).isEqualTo(2);
        if (!named) {
            assertThat(answer.text()).startsWith("agent.argument_invalid: ");
        }
    }

    @Provide
    Arbitrary<String> readTool() {
        return Arbitraries.of("get_resource", "get_logs", "get_events", "list_resources");
    }

    @Property(tries = 150)
    void aReadSendsExactlyTheNamedPathOrNothingAndShowsNoSecretValue(@ForAll("readTool") String tool,
            @ForAll("hostile") String namespace, @ForAll("hostile") String name) {
        ObjectNode arguments = switch (tool) {
            case "get_resource" -> args("cluster", "prod-1", "kind", "secrets", "namespace", namespace, "name", name);
            case "get_logs" -> args("cluster", "prod-1", "namespace", namespace, "pod", name);
            case "get_events" -> args("cluster", "prod-1", "namespace", namespace, "name", name);
            default -> args("cluster", "prod-1", "kind", "secrets", "namespace", namespace, "label_selector", name);
        };
        cluster.clearRequests();

        McpClient.Answer answer = mcp.call(tool, arguments);

        assertThat(answer.status()).as(answer.body().toString()).isEqualTo(200);
        assertThat(answer.body().toString()).doesNotContain(SECRET_VALUE)
                .doesNotContain(Base64.getEncoder().encodeToString(SECRET_VALUE.getBytes(StandardCharsets.UTF_8)));
        boolean valid = KubeNames.isNamespace(namespace) && (tool.equals("list_resources")
                || KubeNames.isPathSegment(name));
        for (RecordedRequest request : cluster.requests()) {
            assertThat(request.method()).isEqualTo("GET");
            if (request.path().equals("/api") || request.path().equals("/apis")) {
                continue;
            }
            assertThat(valid).as("a request sent for arguments the rules refuse: " + request.target() + " for "
                    + namespace.codePoints().boxed().toList() + " " + name.codePoints().boxed().toList()).isTrue();
            String target = request.target();
            String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
            ClusterPath expected = switch (tool) {
                case "get_resource" -> ClusterPath.of("api", "v1", "namespaces", namespace, "secrets", name);
                case "get_logs" -> ClusterPath.of("api", "v1", "namespaces", namespace, "pods", name, "log");
                case "get_events" -> ClusterPath.of("api", "v1", "namespaces", namespace, "events");
                default -> ClusterPath.of("api", "v1", "namespaces", namespace, "secrets");
            };
            if (tool.equals("get_logs") && !path.endsWith("/log")) {
                // Without a container named, the pod is read first for its default one (issue 43).
                expected = ClusterPath.of("api", "v1", "namespaces", namespace, "pods", name);
            }
            assertThat(path).isEqualTo(expected.encoded());
            if (tool.equals("get_events") || tool.equals("list_resources")) {
                Optional<String> selector = request.queryParameter(tool.equals("get_events") ? "fieldSelector"
                        : "labelSelector");
                assertThat(selector).as(target).isPresent();
            }
        }
    }

    @Provide
    Arbitrary<String> pathTail() {
        return hostile().map(text -> text.replaceAll("[\\s]", "")).filter(text -> !text.isEmpty()
                && text.chars().allMatch(c -> c > 0x20 && c < 0x7f));
    }

    @Property(tries = 200)
    void theProxyForwardsExactlyThePathItCheckedOrNothing(@ForAll("pathTail") String tail) throws IOException {
        String target = "/api/v1/namespaces/team-a/configmaps/" + tail;
        cluster.clearRequests();

        String answer = raw("/clusters/prod-1" + target);

        List<RecordedRequest> sent = cluster.requests();
        assertThat(sent.size()).as(answer).isLessThanOrEqualTo(1);
        if (sent.isEmpty()) {
            assertThat(answer).startsWith("HTTP/1.1 4");
            return;
        }
        // An empty query ("…?") is no query: the path and the parameters are forwarded as sent.
        assertThat(sent.get(0).target()).isEqualTo(target.endsWith("?") && target.indexOf('?') == target.length() - 1
                ? target.substring(0, target.length() - 1) : target);
        assertThat(sent.get(0).method()).isEqualTo("GET");
    }

    private static String raw(String target) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", klave.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + bot.token()
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
