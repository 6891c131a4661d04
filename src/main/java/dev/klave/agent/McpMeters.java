package dev.klave.agent;

import static java.util.Objects.requireNonNull;

import dev.klave.agent.tool.ToolName;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The agent endpoint's meters (issue 32, README "Metrics"): {@code klave_mcp_requests_total{method,
 * tool,outcome}} and {@code klave_mcp_request_duration_seconds{method,tool}}, a message's time from
 * its arrival to its answer — a held write's wait for a person included, which is what an agent
 * sees. Bounded labels: {@code method} one this server answers or {@code other}, {@code tool} a
 * tool of the catalogue or {@code -}, {@code outcome} {@code ok}, {@code tool_error} (the tool ran
 * and said it failed: a refusal of the cluster, a bad argument), {@code input_required} (a write
 * waiting for approval, the 2026 revision) or {@code rpc_error}. Messages refused before they are
 * read (credential, rate limit) are not counted here: the sign of those is the 401/429 at the door.
 */
public final class McpMeters {
    static final String NONE = "-";
    /** The method of a message that names none this server answers, or none that could be read. */
    static final String OTHER = "other";
    private static final Set<String> METHODS = Set.of("initialize", "ping", "tools/list", "tools/call",
            "server/discover");
    private static final Duration[] BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
        Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(300)};

    /** What became of one message. */
    enum Outcome {
        OK("ok"), TOOL_ERROR("tool_error"), INPUT_REQUIRED("input_required"), RPC_ERROR("rpc_error");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }
    }

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public McpMeters(MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
    }

    /** Counts nothing (tests that do not look). */
    public static McpMeters none() {
        return new McpMeters(new CompositeMeterRegistry());
    }

    /** The {@code method} label of {@code method} as the client sent it. */
    static String method(String method) {
        return METHODS.contains(method) ? method : OTHER;
    }

    /** The {@code tool} label of a {@code tools/call}'s {@code params.name}. */
    static String tool(String name) {
        return name == null ? NONE : ToolName.named(name).map(ToolName::wire).orElse(NONE);
    }

    void ended(String method, String tool, Outcome outcome, long startedNanos) {
        String key = method + ' ' + tool;
        counters.computeIfAbsent(key + ' ' + outcome.label, ignored -> Counter.builder("klave.mcp.requests")
                .description("Messages answered by /mcp, by method, tool and outcome")
                .tags("method", method, "tool", tool, "outcome", outcome.label)
                .register(registry)).increment();
        timers.computeIfAbsent(key, ignored -> Timer.builder("klave.mcp.request.duration")
                .description("Time from a /mcp message's arrival to its answer, a held write's wait included")
                .tags("method", method, "tool", tool)
                .serviceLevelObjectives(BUCKETS)
                .register(registry)).record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
    }
}
