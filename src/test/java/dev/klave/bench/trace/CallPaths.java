package dev.klave.bench.trace;

import dev.klave.bench.McpBenchClient;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingKlave;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * Which of Klave's classes and packages one request crosses (issue 39: "counts that show the
 * design"), seen by {@link CallTraceAgent} on every thread: a proxied {@code GET} of pods, an MCP
 * read tool's call, and an approved write (held, approved by a person, called again and run). Each
 * is traced once, warm, against an idle window of the same length whose methods (the guard's tick,
 * the audit writer's wait) are left out, so what remains is the request's. Also counts how often
 * the methods that look a bearer up ran for one {@code /mcp} call.
 *
 * <p>{@code bench/call-paths} builds the agent jar and runs this with it.
 */
public final class CallPaths {
    /** How long the background is sampled on its own: what it enters then is no request's. */
    private static final Duration IDLE_SAMPLE = Duration.ofMillis(800);
    /** The classes that look a bearer up or check it (their names in every build since the agents'). */
    private static final Set<String> BEARER_CLASSES = Set.of("CredentialChecks", "AgentAuthenticator",
            "SessionBearers", "Bearers", "CredentialStore", "JdbiCredentialStore", "JdbiAgentTokenStore",
            "JdbiAgentSessionStore");

    private CallPaths() {}

    public static void main(String[] args) throws Exception {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            TestingKlave klave = TestingKlave.start(Clock.systemUTC(), settings -> settings
                    .with("SERVICE_MCP_RATE_LIMIT", "100000000").with("KLAVE_LOG_LEVEL", "WARN")
                    .with("SERVICE_AGENT_APPROVAL_WAIT", "0s"));
            try {
                McpBenchClient mcp = McpBenchClient.approvingBot(klave, cluster, 1);
                HttpClient http = HttpClient.newHttpClient();
                HttpRequest pods = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + klave.port()
                        + "/clusters/prod-1/api/v1/namespaces/team-a/pods"))
                        .header("Authorization", "Bearer " + mcp.token()).build();
                long[] replicas = {2};
                dev.klave.audit.AuditWriter audit = klave.hooks().auditWriter();
                Callable<Boolean> proxied = () -> http.send(pods, HttpResponse.BodyHandlers.ofString())
                        .statusCode() == 200;
                Callable<Boolean> read = mcp::read;
                Callable<Boolean> write = () -> mcp.approvedWrite(0, ++replicas[0]);
                for (int i = 0; i < 200; i++) {
                    proxied.call();
                    read.call();
                    if (i % 10 == 0) {
                        write.call();
                    }
                }
                report("a proxied GET of pods", trace(proxied, audit));
                Map<String, Long> tool = trace(read, audit);
                report("an MCP read tool's call (get_resource)", tool);
                report("an approved write (scale held, approved, called again and run)", trace(write, audit));
                System.out.println("bearer checks in one read tool's call: " + lookups(tool));
            } finally {
                klave.close();
            }
        }
        System.exit(0);
    }

    /** The methods {@code request} entered that an idle window of the same length did not. */
    private static Map<String, Long> trace(Callable<Boolean> request, dev.klave.audit.AuditWriter audit)
            throws Exception {
        // A sample of a fixed length, not a wait: the background threads' methods in that window.
        Trace.start();
        Thread.sleep(IDLE_SAMPLE.toMillis()); // bench: the idle sample's length (above)
        Set<String> idle = Trace.stop().keySet();
        Trace.start();
        if (!request.call()) {
            throw new IllegalStateException("the traced request failed");
        }
        // The request's work after its answer (its row's completion) is the audit writer's: waited for.
        audit.flush().get(10, java.util.concurrent.TimeUnit.SECONDS);
        Map<String, Long> seen = new TreeMap<>(Trace.stop());
        seen.keySet().removeAll(idle);
        return seen;
    }

    private static void report(String what, Map<String, Long> methods) {
        Map<String, Set<String>> byPackage = new TreeMap<>();
        for (String method : methods.keySet()) {
            String pkg = method.substring(0, method.indexOf(' ')).replace("dev.klave.", "").replace("dev.klave", "(root)");
            String owner = method.substring(method.indexOf(' ') + 1, method.indexOf('#'));
            // A nested class counts with its outer one: one class to read.
            String outer = owner.contains(".") ? owner.substring(0, owner.indexOf('.')) : owner;
            byPackage.computeIfAbsent(pkg, ignored -> new TreeSet<>()).add(outer);
        }
        int classes = byPackage.values().stream().mapToInt(Set::size).sum();
        System.out.printf("%s: %d classes in %d packages%n", what, classes, byPackage.size());
        byPackage.forEach((pkg, owners) -> System.out.printf("  %s: %s%n", pkg, String.join(", ", owners)));
    }

    /** Each method of the bearer-checking classes one call entered, with how many times. */
    private static String lookups(Map<String, Long> methods) {
        return methods.entrySet().stream()
                .filter(entry -> BEARER_CLASSES.contains(entry.getKey().substring(entry.getKey().indexOf(' ') + 1,
                        entry.getKey().indexOf('#'))))
                .map(entry -> entry.getKey().substring(entry.getKey().indexOf(' ') + 1) + " ×" + entry.getValue())
                .collect(Collectors.joining(", "));
    }
}
