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
     * 10 s once idle: counts unchanged for longer than that have all been flushed.
     */
    private static final Duration STATS_SETTLED = Duration.ofSeconds(11);
    private static final Duration STATS_AT_MOST = Duration.ofSeconds(60);
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
                long before = scans(database);
                java.util.Map<String, Long> tablesBefore = tables(database);
                for (int i = 0; i < sequential; i++) {
                    mcp.read();
                }
                long afterReads = scans(database);
                java.util.Map<String, Long> tablesAfter = tables(database);
                tablesAfter.forEach((table, count) -> {
                    long delta = count - tablesBefore.getOrDefault(table, 0L);
                    if (delta > 0) {
                        System.out.printf("  %s: %.1f scans per read tool call%n", table, delta / (double) sequential);
                    }
                });
                for (int i = 0; i < sequential; i++) {
                    mcp.approvedWrite(0, replicas.incrementAndGet());
                }
                long afterWrites = scans(database);
                System.out.printf("database reads (table scans) per read tool call: %.1f%n",
                        (afterReads - before) / (double) sequential);
                System.out.printf("database reads (table scans) per approved write (hold + approve + run): %.1f%n",
                        (afterWrites - afterReads) / (double) sequential);
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

    /** Table scans of the whole database so far, once every backend has flushed its counts. */
    private static long scans(DatabaseUrl.Postgres database) throws Exception {
        long last = readScans(database);
        long stableSince = System.nanoTime();
        long end = System.nanoTime() + STATS_AT_MOST.toNanos();
        while (System.nanoTime() - stableSince < STATS_SETTLED.toNanos()) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("the statistics kept moving for " + STATS_AT_MOST);
            }
            Thread.sleep(500); // bench, not a test: samples until the statistics settle, bounded above
            long now = readScans(database);
            if (now != last) {
                last = now;
                stableSince = System.nanoTime();
            }
        }
        return last;
    }

    private static long readScans(DatabaseUrl.Postgres database) throws Exception {
        String url = "jdbc:postgresql://" + database.host() + ":" + database.port() + "/" + database.database();
        try (Connection connection = DriverManager.getConnection(url, database.user(),
                database.password().orElse(null));
                ResultSet row = connection.createStatement().executeQuery(
                        "SELECT sum(seq_scan + coalesce(idx_scan, 0)) FROM pg_stat_user_tables")) {
            row.next();
            return row.getLong(1);
        }
    }

    /** Table scans per table, read as {@link #scans} reads them (after the same settling). */
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
