package dev.klave.bench;

import dev.klave.config.DatabaseUrl;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.time.Clock;

/**
 * Klave's {@code /mcp} alone, on PostgreSQL (issue 39, "Measured, before and after"): calls per
 * second at 8 clients and p50/p99 of one read tool ({@code get_resource}) and of one approved write
 * ({@code scale} held, approved by a person, called again and run), and how many times the
 * database is read per tool call — table scans (sequential and index) counted by PostgreSQL's own
 * statistics ({@code pg_stat_user_tables}) over a sequential run, so the figure is the server's,
 * not the client's. Uses only what every build since the agent endpoint has (the HTTP API, the
 * test kit's start-up), so the same file runs against an older checkout for the "before".
 *
 * <p>{@code bench/mcp-gateway [seconds (default 15)] [sequential calls (default 500)]}
 */
public final class McpGatewayBench {
    /**
     * PostgreSQL 15's backends flush their statistics at most once a second while busy, and within
     * 10 s once idle: a read this long after a phase has all of it.
     */
    private static final Duration STATS_FLUSHED = Duration.ofSeconds(11);
    /** The idle window whose reads (background work) are taken out of each phase's. */
    private static final Duration IDLE_WINDOW = Duration.ofSeconds(20);
    private static final int CLIENTS = 8;

    private McpGatewayBench() {}

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int sequential = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            TestingKlave klave = TestingKlave.startOn(database, Clock.systemUTC(), settings -> settings
                    .with("SERVICE_MCP_RATE_LIMIT", "100000000").with("KLAVE_LOG_LEVEL", "WARN")
                    .with("SERVICE_AGENT_APPROVAL_WAIT", "0s"));
            try {
                McpBenchClient mcp = McpBenchClient.approvingBot(klave, cluster, CLIENTS);
                AtomicLong replicas = new AtomicLong(2);
                // Warm-up, then the database's own count over sequential calls, then the loads.
                ClosedLoop.run(CLIENTS, 5, client -> mcp.read());
                ClosedLoop.run(CLIENTS, 5, client -> mcp.approvedWrite(client, replicas.incrementAndGet()));
                // Background work (the notifier's outbox, the recordings' writer, sweeps) reads the
                // database while idle too: its rate, per table, measured over an idle window, is taken
                // out of each phase's counts.
                Snapshot idleFrom = Snapshot.flushed(database);
                Thread.sleep(IDLE_WINDOW); // bench, not a test: an idle window of fixed length, measured
                Snapshot idleTo = Snapshot.flushed(database);
                Snapshot before = idleTo;
                for (int i = 0; i < sequential; i++) {
                    mcp.read();
                }
                Snapshot afterReads = Snapshot.flushed(database);
                for (int i = 0; i < sequential; i++) {
                    mcp.approvedWrite(0, replicas.incrementAndGet());
                }
                Snapshot afterWrites = Snapshot.flushed(database);
                System.out.printf("background reads while idle: %.1f table scans per second%n",
                        idleTo.total(idleFrom) / seconds(idleFrom, idleTo));
                java.util.Map<String, Double> reads = perCall(before, afterReads, idleFrom, idleTo, sequential);
                reads.forEach((table, count) -> System.out.printf("  %s: %.1f scans per read tool call%n", table,
                        count));
                java.util.Map<String, Double> writes = perCall(afterReads, afterWrites, idleFrom, idleTo, sequential);
                writes.forEach((table, count) -> System.out.printf("  %s: %.1f scans per approved write%n", table,
                        count));
                System.out.printf("database reads (table scans) per read tool call: %.1f%n",
                        reads.values().stream().mapToDouble(Double::doubleValue).sum());
                System.out.printf("database reads (table scans) per approved write (hold + approve + run): %.1f%n",
                        writes.values().stream().mapToDouble(Double::doubleValue).sum());
                System.out.println("| call | load | calls/s | calls | errors | p50 ms | p99 ms |");
                System.out.println("|---|---|---:|---:|---:|---:|---:|");
                print("get_resource", ClosedLoop.run(CLIENTS, seconds, client -> mcp.read()));
                print("scale, approved (hold + approve + run)", ClosedLoop.run(CLIENTS, seconds,
                        client -> mcp.approvedWrite(client, replicas.incrementAndGet())));
            } finally {
                klave.close();
            }
        } finally {
            TestingPostgres.drop(database);
        }
        System.exit(0);
    }

    /** Table scans per table at one moment, read once every backend has flushed its counts. */
    private record Snapshot(java.util.Map<String, Long> tables, long nanos) {
        static Snapshot flushed(DatabaseUrl.Postgres database) throws Exception {
            Thread.sleep(STATS_FLUSHED); // bench, not a test: PostgreSQL's own flush interval of idle backends
            return new Snapshot(McpGatewayBench.tables(database), System.nanoTime());
        }

        long total(Snapshot since) {
            return tables.values().stream().mapToLong(Long::longValue).sum()
                    - since.tables.values().stream().mapToLong(Long::longValue).sum();
        }

        long delta(Snapshot since, String table) {
            return tables.getOrDefault(table, 0L) - since.tables.getOrDefault(table, 0L);
        }
    }

    private static double seconds(Snapshot from, Snapshot to) {
        return (to.nanos() - from.nanos()) / 1e9;
    }

    /** Scans per call of each table in a phase, less what the idle rate of the same table explains. */
    private static java.util.Map<String, Double> perCall(Snapshot from, Snapshot to, Snapshot idleFrom,
            Snapshot idleTo, int calls) {
        double phase = seconds(from, to);
        double idle = seconds(idleFrom, idleTo);
        java.util.Map<String, Double> per = new java.util.TreeMap<>();
        for (String table : to.tables().keySet()) {
            double scans = to.delta(from, table) - idleTo.delta(idleFrom, table) * phase / idle;
            if (scans / calls >= 0.05) {
                per.put(table, scans / calls);
            }
        }
        return per;
    }

    /** Table scans per table, as PostgreSQL's statistics have them now. */
    private static java.util.Map<String, Long> tables(DatabaseUrl.Postgres database) throws Exception {
        String url = "jdbc:postgresql://" + database.host() + ":" + database.port() + "/" + database.database();
        java.util.Map<String, Long> counts = new java.util.TreeMap<>();
        try (Connection connection = DriverManager.getConnection(url, database.user(),
                database.password().orElse(null));
                ResultSet rows = connection.createStatement().executeQuery(
                        "SELECT relname, seq_scan + coalesce(idx_scan, 0) FROM pg_stat_user_tables")) {
            while (rows.next()) {
                counts.put(rows.getString(1), rows.getLong(2));
            }
        }
        return counts;
    }

    private static void print(String call, ClosedLoop.Measured measured) {
        System.out.printf("| %s | %d clients | %.0f | %d | %d | %.1f | %.1f |%n", call, CLIENTS,
                measured.calls() / measured.seconds(), measured.calls(), measured.errors(), measured.percentile(0.50),
                measured.percentile(0.99));
    }
}
