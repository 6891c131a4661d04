package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.LockState;
import dev.klave.account.LoginFailureStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * {@link LoginFailureStore} in SQL. Counting and locking is one upsert, so failures sent to two
 * replicas at once are both counted and the fifth of them locks, whichever replica sees it.
 */
public final class JdbiLoginFailureStore implements LoginFailureStore {
    private final Database database;

    public JdbiLoginFailureStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public LockState state(String login) {
        return database.withHandle(handle -> handle.createQuery(
                        "SELECT failures, locked_until FROM login_lockouts WHERE login = :login")
                .bind("login", login)
                .map(JdbiLoginFailureStore::map)
                .findOne()
                .orElse(LockState.CLEAR));
    }

    @Override
    public LockState recordFailure(String login, int maxFailures, Instant lockUntil) {
        if (maxFailures < 2) {
            throw new IllegalArgumentException("maxFailures must be at least 2");
        }
        return database.write(handle -> handle.createQuery("INSERT INTO login_lockouts "
                        + "(login, failures, locked_until) VALUES (:login, 1, NULL) "
                        + "ON CONFLICT (login) DO UPDATE SET "
                        + "failures = CASE WHEN login_lockouts.failures + 1 >= :max THEN 0 "
                        + "ELSE login_lockouts.failures + 1 END, "
                        + "locked_until = CASE WHEN login_lockouts.failures + 1 >= :max THEN :lock_until "
                        + "ELSE login_lockouts.locked_until END "
                        + "RETURNING failures, locked_until")
                .bind("login", login)
                .bind("max", maxFailures)
                .bind("lock_until", lockUntil.toEpochMilli())
                .map(JdbiLoginFailureStore::map)
                .one());
    }

    @Override
    public void clear(String login) {
        database.write(handle -> handle.createUpdate("DELETE FROM login_lockouts WHERE login = :login")
                .bind("login", login)
                .execute());
    }

    private static LockState map(ResultSet row, StatementContext context) throws SQLException {
        return new LockState(row.getInt("failures"), Times.instant(row, "locked_until"));
    }
}
