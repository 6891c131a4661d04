package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.access.AccessChanges;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/** {@link AccessChanges} as the one row that the V7 migration's triggers move forward. */
public final class JdbiAccessChanges implements AccessChanges {
    private final Database database;

    public JdbiAccessChanges(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public long generation() {
        return database.withHandle(handle -> {
            try {
                return read(database, handle);
            } catch (SQLException e) {
                throw new UnableToExecuteStatementException(e, null);
            }
        });
    }

    /**
     * The access generation, read on {@code handle} (inside its transaction, if it has one). Plain JDBC:
     * the audit writer reads it once per batch, and Jdbi's query mapping cost more than the query
     * (perf, bench/RESULTS.md); the statement stays prepared (KeptStatements).
     */
    static long read(Database database, Handle handle) throws SQLException {
        try (ResultSet row = database.kept(handle, "SELECT generation FROM access_changes WHERE id = 1").executeQuery()) {
            if (!row.next()) {
                throw new IllegalStateException("access_changes has no row (migration V7)");
            }
            return row.getLong(1);
        }
    }
}
