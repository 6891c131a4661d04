package bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;

/**
 * The floor under a durable audit row: one INSERT and COMMIT at a fixed rate on a database,
 * nothing else, as Klave's audit writer does at low load (spec 1: a request is forwarded only once
 * its row is written). Prints commit latency percentiles; its p99 bounds klave-postgres's added
 * p99 from below. Writes into a table of its own, {@code bench_commit_latency}, and drops it.
 * Meant for PostgreSQL, where each commit waits for its log flush.
 */
final class CommitLatency {
    private CommitLatency() {}

    static ObjectNode run(Args args) throws Exception {
        int count = args.number("count", 4000);
        long intervalNanos = 1_000_000_000L / args.number("rate", 500);
        try (Connection connection = DriverManager.getConnection(args.text("jdbc"))) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE IF NOT EXISTS bench_commit_latency (id bigint, at text, path text)");
            }
            connection.setAutoCommit(false);
            long[] took = new long[count];
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO bench_commit_latency VALUES (?, ?, ?)")) {
                long start = System.nanoTime();
                for (int i = 0; i < count; i++) {
                    long due = start + i * intervalNanos;
                    while (System.nanoTime() < due) {
                        Thread.onSpinWait();
                    }
                    long began = System.nanoTime();
                    insert.setLong(1, i);
                    insert.setString(2, "2026-11-26T10:00:00Z");
                    insert.setString(3, "/api/v1/namespaces/default/pods");
                    insert.executeUpdate();
                    connection.commit();
                    took[i] = System.nanoTime() - began;
                }
            } finally {
                connection.setAutoCommit(true);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("DROP TABLE bench_commit_latency");
                }
            }
            return Latencies.put(Api.JSON.createObjectNode().put("commits", count), took);
        }
    }
}
