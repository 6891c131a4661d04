package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.storage.DatabaseUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SQLite's one writer, taken in turn in Java before SQLite is asked for it.
 *
 * <p>SQLite lets one connection write at a time; the others wait in its busy handler, which sleeps
 * in native code. On a virtual thread (every API request and {@code /mcp} call runs on one) a
 * native sleep pins the carrier thread, and there are as many carriers as cores. Measured on 2
 * cores (bench/RESULTS.md, issue 51 §6): two virtual threads waiting for the lock took both
 * carriers while the virtual thread holding it had parked for a moment (SecureRandom, in
 * {@code Accounts.createBot}'s transaction) and could not get one back to commit — it held the
 * lock for 30.7 s, and every waiter failed after the 10 s busy timeout ({@code SQLITE_BUSY}, HTTP
 * 500). Here a writer waits on a fair lock instead: a virtual thread parks, freeing its carrier,
 * the writers go in the order they came, and SQLite's own wait is left for writers outside this
 * process.
 *
 * <p>A transaction is {@code BEGIN IMMEDIATE} … {@code COMMIT} run here, not the driver's
 * {@code setAutoCommit}/{@code commit}: sqlite-jdbc's {@code commit()} is {@code COMMIT} followed
 * at once by another {@code BEGIN IMMEDIATE}, so each transaction took the write lock twice and
 * could fail, after its rows were committed, on the second; and a {@code BEGIN} that failed left
 * the driver saying it was in a transaction that SQLite never began ("cannot commit - no
 * transaction is active"). A writer waits at most {@code wait} for its turn (SQLite's busy timeout,
 * which it replaces in this process), then the database is unavailable (503), never a 500.
 */
final class SqliteWriters {
    private static final Logger LOG = LoggerFactory.getLogger(SqliteWriters.class);

    private static final Pattern WRITING_KEYWORD = Pattern.compile("\\b(INSERT|UPDATE|DELETE|REPLACE)\\b",
            Pattern.CASE_INSENSITIVE);

    private final ReentrantLock turn = new ReentrantLock(true);
    private final Set<String> outside = ConcurrentHashMap.newKeySet();
    private final Duration wait;
    private final Consumer<Connection> evict;
    /** The thread whose transaction is open, so that its nested calls join it. */
    private volatile Thread owner;

    /**
     * @param evict drops a connection from the pool when its transaction could not be ended
     */
    SqliteWriters(Duration wait, Consumer<Connection> evict) {
        this.wait = requireNonNull(wait, "wait is null");
        this.evict = requireNonNull(evict, "evict is null");
    }

    /** Whether this thread runs inside a transaction begun here. */
    boolean inTransaction() {
        return owner == Thread.currentThread();
    }

    /**
     * Runs {@code work} in one IMMEDIATE transaction on a handle of {@code jdbi} that the store calls
     * inside it share (Jdbi hands nested calls on the same thread the open handle); a call made
     * inside another transaction joins it.
     */
    <T> T inTransaction(Jdbi jdbi, Supplier<T> work) {
        if (inTransaction()) {
            return work.get();
        }
        take();
        try {
            return jdbi.withHandle(handle -> {
                Connection connection = handle.getConnection();
                execute(connection, "BEGIN IMMEDIATE");
                owner = Thread.currentThread();
                boolean committed = false;
                try {
                    T result = work.get();
                    execute(connection, "COMMIT");
                    committed = true;
                    return result;
                } finally {
                    owner = null;
                    if (!committed) {
                        rollBack(connection);
                    }
                }
            });
        } finally {
            turn.unlock();
        }
    }

    /**
     * Runs {@code work} holding the writers' turn without a transaction (a checkpoint that holds
     * writers off while it runs) if the turn comes within {@code within}; false when it did not.
     */
    boolean whileHeld(Duration within, Runnable work) {
        boolean taken;
        try {
            taken = turn.tryLock(within.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (!taken) {
            return false;
        }
        try {
            work.run();
            return true;
        } finally {
            turn.unlock();
        }
    }

    /**
     * Notes each write statement run outside a transaction begun here: such a write would wait for
     * SQLite's lock in native code again. Stores write through {@link Database#write} or
     * {@link Database#inTransaction}; a test fails on any write this saw ({@link #writesOutside}).
     */
    StatementCustomizer watch() {
        return new StatementCustomizer() {
            @Override
            public void beforeExecution(PreparedStatement statement, StatementContext context) {
                if (!inTransaction() && writes(context.getRenderedSql()) && outside.add(context.getRenderedSql())) {
                    LOG.warn("an SQLite write outside Database.write or inTransaction waits on SQLite's own lock: {}",
                            context.getRenderedSql());
                }
            }
        };
    }

    /** The write statements run outside a transaction so far (for tests). */
    Set<String> writesOutside() {
        return Set.copyOf(outside);
    }

    /** Whether {@code sql} changes rows (by its first keyword; a WITH by the keywords it holds). */
    static boolean writes(String sql) {
        String text = sql.stripLeading();
        int end = 0;
        while (end < text.length() && Character.isLetter(text.charAt(end))) {
            end++;
        }
        String first = text.substring(0, end).toUpperCase(Locale.ROOT);
        return switch (first) {
            case "INSERT", "UPDATE", "DELETE", "REPLACE" -> true;
            case "WITH" -> WRITING_KEYWORD.matcher(text).find();
            default -> false;
        };
    }

    private void take() {
        boolean taken;
        try {
            taken = turn.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseUnavailableException("interrupted while waiting to write to the database", e);
        }
        if (!taken) {
            throw new DatabaseUnavailableException("the database stayed busy with other writers for "
                    + wait.toSeconds() + " s", null);
        }
    }

    private static void execute(Connection connection, String sql) {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            if (SqlErrors.isBusy(e)) {
                // Another process holds SQLite's write lock past the busy timeout: nothing was done.
                throw new DatabaseUnavailableException("the database is locked by another process: "
                        + e.getMessage(), e);
            }
            throw new org.jdbi.v3.core.statement.UnableToExecuteStatementException(e, null);
        }
    }

    /**
     * Rolls back; a connection whose transaction could not be ended (SQLite may already have rolled
     * it back itself, or may still hold it) never goes back to the pool.
     */
    private void rollBack(Connection connection) {
        try (Statement statement = connection.createStatement()) {
            statement.execute("ROLLBACK");
        } catch (SQLException e) {
            LOG.warn("SQLite rollback failed ({}); the connection is closed instead", e.getMessage());
            evict.accept(connection);
        }
    }
}
