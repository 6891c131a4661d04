package dev.klave.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Statements run on every audit batch (the writer's inserts, the access generation read), prepared
 * once per pooled connection instead of once per call.
 *
 * <p>sqlite-jdbc compiles the SQL again on every {@code prepareStatement}: with a batch of a few
 * rows at full load that was a sixth of the writer thread's CPU (async-profiler,
 * bench/RESULTS.md). The statements are prepared on the pool's underlying connection, so HikariCP
 * does not close them when the connection goes back to the pool; they live as long as that
 * connection. A connection is used by one thread at a time (the pool hands it over), so its
 * statements are too. When the pool retires a connection its statements go with it: the entry is
 * dropped the next time a connection not seen before comes along.
 */
final class KeptStatements {
    private final Map<Connection, Map<String, PreparedStatement>> byConnection = new ConcurrentHashMap<>();

    /** The statement for {@code sql} on {@code pooled}'s connection, with no parameters or batch left over. */
    PreparedStatement prepare(Connection pooled, String sql) throws SQLException {
        Connection connection = pooled.unwrap(Connection.class);
        Map<String, PreparedStatement> statements = byConnection.get(connection);
        if (statements == null) {
            forgetClosedConnections();
            statements = new ConcurrentHashMap<>();
            byConnection.put(connection, statements);
        }
        PreparedStatement statement = statements.get(sql);
        if (statement == null || statement.isClosed()) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        } else {
            // A batch that failed half-way may have left rows or parameters behind.
            statement.clearBatch();
            statement.clearParameters();
        }
        return statement;
    }

    /** How many connections have statements kept (for tests). */
    int connections() {
        return byConnection.size();
    }

    private void forgetClosedConnections() {
        byConnection.keySet().removeIf(KeptStatements::closed);
    }

    private static boolean closed(Connection connection) {
        try {
            return connection.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }
}
