package dev.klave.bench;

import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bench/mcp}: Klave's {@code /mcp} side by side with kubernetes-mcp-server 0.0.67 — with its
 * defaults and with client-go's limiter raised ({@code KUBE_CLIENT_QPS}, {@code KUBE_CLIENT_BURST}:
 * the comparison that counts) — all pointed at the same cluster simulator (in this JVM), over
 * Streamable HTTP on loopback: {@code list_resources}/{@code resources_list} and
 * {@code get_resource}/{@code resources_get} calls per second at 1 and 8 clients in a closed loop,
 * with the CPU each phase cost this JVM and the peer's process. Klave audits every cluster request
 * (the two discovery requests of each call included) in SQLite; the peer audits none. Rounds
 * interleave the targets. Loopback only; every phase bounded in time.
 *
 * <p>Arguments: {@code <peer binary> <seconds per phase> [rounds, default 2]}. With
 * {@code BENCH_MCP_ONLY=klave} only Klave is measured (the peers are not started): a short run for a
 * change to Klave alone.
 */
public final class McpComparison {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private record Target(String name, String url, Map<String, String> headers, String listBody, String getBody,
            Process process) {}

    private record Result(String target, String call, String phase, double perSecond, long calls, long errors,
            double p50, double p99, double jvmCpuMsPerCall, double peerCpuMsPerCall) {}

    /**
     * kubernetes-mcp-server reads these (client-go's QPS and burst, 5 and 10 by default); a peer is
     * measured at its best, so with them raised beside its defaults.
     */
    private static final Map<String, String> RAISED = Map.of("KUBE_CLIENT_QPS", "10000", "KUBE_CLIENT_BURST", "20000");

    public static void main(String[] args) throws Exception {
        Path peerBinary = Path.of(args[0]);
        int seconds = Integer.parseInt(args[1]);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            TestingKlave klave = TestingKlave.start(Clock.systemUTC(), settings -> settings
                    .with("SERVICE_MCP_RATE_LIMIT", "100000000").with("KLAVE_LOG_LEVEL", "WARN"));
            List<Process> peers = new ArrayList<>();
            try {
                TestingAgents.Bot bot = TestingAgents.bot(klave, cluster, "prod-1", "bench", "view", "team-a");
                for (int i = 0; i < 20; i++) {
                    cluster.objects().put("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings-" + i
                            + ", namespace: team-a}\ndata: {mode: fast, index: \"" + i + "\"}\n");
                }
                Path kubeconfig = Files.createTempFile("peer-kubeconfig", ".yaml");
                Files.writeString(kubeconfig, cluster.kubeconfig(cluster.adminToken()));
                Target ours = new Target("klave", "http://127.0.0.1:" + klave.port() + "/mcp",
                        Map.of("Authorization", "Bearer " + bot.token()),
                        call("list_resources", "{\"cluster\":\"prod-1\",\"kind\":\"configmaps\","
                                + "\"namespace\":\"team-a\"}"),
                        call("get_resource", "{\"cluster\":\"prod-1\",\"kind\":\"configmap\","
                                + "\"namespace\":\"team-a\",\"name\":\"settings-7\"}"), null);
                List<Target> targets = new ArrayList<>(List.of(ours));
                if (!"klave".equals(System.getenv("BENCH_MCP_ONLY"))) {
                    Target defaults = peer("kubernetes-mcp-server (defaults)", peerBinary, kubeconfig, Map.of());
                    peers.add(defaults.process());
                    Target raised = peer("kubernetes-mcp-server (QPS/burst raised)", peerBinary, kubeconfig, RAISED);
                    peers.add(raised.process());
                    for (Target target : List.of(defaults, raised)) {
                        waitUntilUp(target);
                    }
                    targets.add(raised);
                    targets.add(defaults);
                }
                if (System.getenv("BENCH_MCP_TRACE") != null) {
                    // What one call of each sends to the cluster, for a person reading why one is slow.
                    for (Target target : targets.subList(0, Math.min(2, targets.size()))) {
                        cluster.clearRequests();
                        long at = System.nanoTime();
                        send(target, target.listBody());
                        System.out.printf("%s: %.1f ms, cluster requests: %s%n", target.name(),
                                (System.nanoTime() - at) / 1e6, cluster.requests().stream()
                                        .map(request -> request.method() + " " + request.path()).toList());
                    }
                }
                List<Result> results = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    for (Target target : targets) {
                        for (String body : List.of(target.listBody(), target.getBody())) {
                            String name = body == target.listBody() ? "list" : "get";
                            closed(target, body, 2, 2); // warm-up
                            for (int clients : List.of(1, 8)) {
                                results.add(closed(target, body, clients, seconds)
                                        .named(target.name(), name, clients + (clients == 1 ? " client" : " clients")));
                            }
                        }
                    }
                }
                System.out.println("| target | call | load | calls/s | calls | errors | p50 ms | p99 ms "
                        + "| CPU ms per call: this JVM (simulator, load, and Klave when it is the target) | peer's process |");
                System.out.println("|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
                for (Result result : results) {
                    System.out.printf("| %s | %s | %s | %.0f | %d | %d | %.1f | %.1f | %.2f | %s |%n",
                            result.target(), result.call(), result.phase(), result.perSecond(), result.calls(),
                            result.errors(), result.p50(), result.p99(), result.jvmCpuMsPerCall(),
                            Double.isNaN(result.peerCpuMsPerCall()) ? "–"
                                    : String.format(java.util.Locale.ROOT, "%.2f", result.peerCpuMsPerCall()));
                }
            } finally {
                for (Process peer : peers) {
                    peer.destroy();
                    peer.waitFor(10, TimeUnit.SECONDS);
                }
                klave.close();
            }
        }
        System.exit(0);
    }

    private static Target peer(String name, Path binary, Path kubeconfig, Map<String, String> environment)
            throws IOException {
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder(binary.toString(), "--port", String.valueOf(port),
                "--bind-address", "127.0.0.1", "--kubeconfig", kubeconfig.toString(), "--stateless",
                "--read-only", "--disable-multi-cluster", "--log-level", "0")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(environment);
        Process process = builder.start();
        return new Target(name, "http://127.0.0.1:" + port + "/mcp", Map.of(),
                call("resources_list", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"namespace\":\"team-a\"}"),
                call("resources_get", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"namespace\":\"team-a\","
                        + "\"name\":\"settings-7\"}"), process);
    }

    /** CPU seconds this JVM has used. */
    private static double jvmCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    /** CPU seconds a process has used (user + system, from /proc), NaN when unknown. */
    private static double cpuSeconds(Process process) {
        if (process == null) {
            return Double.NaN;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** What one phase measured, before it is named. */
    private record Measured(long calls, long errors, double seconds, long[] nanos, double jvmCpu, double peerCpu) {
        Result named(String target, String call, String phase) {
            long[] sorted = Arrays.copyOf(nanos, (int) Math.min(nanos.length, calls));
            Arrays.sort(sorted);
            return new Result(target, call, phase, calls / seconds, calls, errors, percentile(sorted, 0.50),
                    percentile(sorted, 0.99), jvmCpu * 1000 / Math.max(1, calls), peerCpu * 1000 / Math.max(1, calls));
        }

        private static double percentile(long[] sorted, double at) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(at * sorted.length) - 1)] / 1e6;
        }
    }

    /** {@code clients} loops, each calling as fast as answers come, for {@code seconds}. */
    private static Measured closed(Target target, String body, int clients, int seconds) throws InterruptedException {
        double jvm = jvmCpuSeconds();
        double peer = cpuSeconds(target.process());
        ClosedLoop.Measured loop = ClosedLoop.run(clients, seconds, client -> send(target, body));
        return new Measured(loop.calls(), loop.errors(), loop.seconds(), loop.nanos(), jvmCpuSeconds() - jvm,
                cpuSeconds(target.process()) - peer);
    }

    private static boolean send(Target target, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target.url()))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        target.headers().forEach(request::header);
        try {
            // A JSON answer is read whole; an SSE answer (the peer's) until its response event, as
            // an MCP client reads it, then the stream is dropped.
            HttpResponse<java.io.InputStream> response = HTTP.send(request.build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (java.io.InputStream stream = response.body()) {
                if (response.statusCode() != 200) {
                    return false;
                }
                String type = response.headers().firstValue("Content-Type").orElse("");
                String answer;
                if (type.startsWith("text/event-stream")) {
                    java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(stream,
                            java.nio.charset.StandardCharsets.UTF_8));
                    answer = "";
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        if (line.startsWith("data:") && line.contains("\"result\"")) {
                            answer = line;
                            break;
                        }
                    }
                } else {
                    answer = new String(stream.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                }
                return !answer.contains("\"isError\":true") && answer.contains("settings-");
            }
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String call(String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    private static void waitUntilUp(Target target) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < end) {
            if (send(target, target.getBody())) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(target.name() + " did not answer a call in 30 s");
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
