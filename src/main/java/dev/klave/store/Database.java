package dev.klave.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import com.zaxxer.hikari.pool.HikariPool;
import dev.klave.config.DatabaseUrl;
import dev.klave.storage.AlreadyExistsException;
import dev.klave.storage.DatabaseUnavailableException;
import dev.klave.storage.Transactions;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.jdbi.v3.core.ConnectionException;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection pool, the migrations and the transaction boundary, for either dialect.
 *
 * <p>SQLite runs in WAL mode (readers never wait for the writer). Its writers take turns in Java
 * ({@link SqliteWriters}: a fair lock, so a waiting virtual thread parks instead of pinning its
 * carrier in SQLite's busy handler), and every transaction begins {@code IMMEDIATE}, taking the
 * write lock when it begins rather than upgrading a read lock later; a write outside a caller's
 * transaction goes through {@link #write}. PostgreSQL runs through the same HikariCP pool type;
 * Flyway serialises migrations of replicas that start together with an advisory lock.
 */
public final class Database implements Transactions, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);
    /**
     * How long an SQLite writer waits for its turn, and a statement for a lock another process
     * holds, before the database counts as unavailable.
     */
    static final Duration SQLITE_BUSY_TIMEOUT = Duration.ofSeconds(10);

    private final Dialect dialect;
    private final HikariDataSource dataSource;
    private final Jdbi jdbi;
    private final SqliteCheckpoints checkpoints;
    /** SQLite's writers' turns; null on PostgreSQL, whose writers do not exclude each other. */
    private final SqliteWriters writers;
    private final KeptStatements kept = new KeptStatements();

    private Database(Dialect dialect, HikariDataSource dataSource) {
        this.dialect = dialect;
        this.dataSource = dataSource;
        this.jdbi = Jdbi.create(dataSource);
        this.writers = dialect == Dialect.SQLITE ? new SqliteWriters(SQLITE_BUSY_TIMEOUT, dataSource::evictConnection)
                : null;
        if (writers != null) {
            jdbi.getConfig(org.jdbi.v3.core.statement.SqlStatements.class).addCustomizer(writers.watch());
        }
        this.checkpoints = dialect == Dialect.SQLITE ? new SqliteCheckpoints(this) : null;
        if (checkpoints != null) {
            checkpoints.start();
        }
    }

    /**
     * Opens the pool and brings the schema up to date.
     *
     * @throws DatabaseUnavailableException when the database cannot be reached or migrated
     */
    public static Database open(DatabaseUrl url) {
        requireNonNull(url, "url is null");
        HikariConfig config = new HikariConfig();
        config.setPoolName("klave-db");
        config.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        config.setValidationTimeout(Duration.ofSeconds(2).toMillis());
        Dialect dialect = switch (url) {
            case DatabaseUrl.Sqlite sqlite -> configureSqlite(config, sqlite);
            case DatabaseUrl.Postgres postgres -> configurePostgres(config, postgres);
        };
        HikariDataSource dataSource;
        try {
            dataSource = new HikariDataSource(config);
        } catch (HikariPool.PoolInitializationException e) {
            throw new DatabaseUnavailableException("cannot connect to " + url.display() + ": "
                    + rootMessage(e), e);
        }
        try {
            migrate(dialect, dataSource);
        } catch (FlywayException e) {
            dataSource.close();
            throw new DatabaseUnavailableException("cannot migrate " + url.display() + ": " + rootMessage(e), e);
        }
        LOG.info("database {} ready ({})", url.display(), dialect);
        return new Database(dialect, dataSource);
    }

    private static Dialect configureSqlite(HikariConfig config, DatabaseUrl.Sqlite sqlite) {
        Path parent = sqlite.file().toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the database directory " + parent, e);
        }
        config.setJdbcUrl(sqlite.jdbcUrl());
        config.addDataSourceProperty("journal_mode", "WAL");
        config.addDataSourceProperty("synchronous", "NORMAL");
        // When SQLite starts the log over it cuts the file back to this size (SqliteCheckpoints).
        config.addDataSourceProperty("journal_size_limit", String.valueOf(64 << 20));
        config.addDataSourceProperty("busy_timeout", String.valueOf(SQLITE_BUSY_TIMEOUT.toMillis()));
        config.addDataSourceProperty("foreign_keys", "true");
        // Klave's transactions begin IMMEDIATE themselves (SqliteWriters); this covers Flyway's.
        config.addDataSourceProperty("transaction_mode", "IMMEDIATE");
        // Checkpoints run on a thread of their own (SqliteCheckpoints), never inside a commit.
        config.setConnectionInitSql("PRAGMA wal_autocheckpoint = 0");
        config.setMaximumPoolSize(8);
        return Dialect.SQLITE;
    }

    private static Dialect configurePostgres(HikariConfig config, DatabaseUrl.Postgres postgres) {
        config.setJdbcUrl(postgres.jdbcUrl());
        config.setUsername(postgres.user());
        postgres.password().ifPresent(config::setPassword);
        config.addDataSourceProperty("ApplicationName", "klave");
        // A JDBC batch of inserts (the audit writer's) becomes multi-row INSERTs: one round trip.
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        config.setMaximumPoolSize(16);
        return Dialect.POSTGRES;
    }

    private static void migrate(Dialect dialect, HikariDataSource dataSource) {
        Flyway.configure()
                .dataSource(dataSource)
                .locations(dialect.migrationLocation())
                // Migrations that need Klave's own rules (the e-mail key), the same for both dialects.
                .javaMigrations(new dev.klave.store.migration.V12__EmailKeys())
                .failOnMissingLocations(true)
                .load()
                .migrate();
    }

    public Dialect dialect() {
        return dialect;
    }

    /** Runs {@code work} with a handle: the thread's open transaction if there is one, else a new handle. */
    public <T> T withHandle(HandleCallback<T, RuntimeException> work) {
        try {
            return jdbi.withHandle(work);
        } catch (JdbiException e) {
            throw translate(e);
        }
    }

    /**
     * A statement on {@code handle}'s connection that stays prepared for the next call on the
     * same connection ({@link KeptStatements}): for SQL run on every audit batch (the row and end
     * inserts, the access generation read, which other threads make too). Callers close its result
     * sets, never the statement.
     */
    PreparedStatement kept(Handle handle, String sql) throws SQLException {
        return kept.prepare(handle.getConnection(), sql);
    }

    /**
     * A connection of its own, outside the pool, for a session that lives as long as a listener
     * does ({@code LISTEN}): a pooled one would be held for good, and the pool retires connections.
     * The caller closes it.
     */
    Connection dedicatedConnection() throws SQLException {
        return java.sql.DriverManager.getConnection(dataSource.getJdbcUrl(), dataSource.getUsername(),
                dataSource.getPassword());
    }

    /** For tests: the pool closes every connection and opens new ones, as it does at their maximum lifetime. */
    void retireConnections() {
        dataSource.getHikariPoolMXBean().softEvictConnections();
    }

    /**
     * For tests: how many statements Jdbi runs, on any thread, while {@code work} runs (what a page
     * of a listing costs, whatever its number of rows).
     */
    int statementsDuring(Runnable work) {
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        org.jdbi.v3.core.statement.SqlStatements statements = jdbi.getConfig(
                org.jdbi.v3.core.statement.SqlStatements.class);
        org.jdbi.v3.core.statement.SqlLogger previous = statements.getSqlLogger();
        statements.setSqlLogger(new org.jdbi.v3.core.statement.SqlLogger() {
            @Override
            public void logBeforeExecution(org.jdbi.v3.core.statement.StatementContext context) {
                count.incrementAndGet();
                previous.logBeforeExecution(context);
            }
        });
        try {
            work.run();
        } finally {
            statements.setSqlLogger(previous);
        }
        return count.get();
    }

    /** How many pooled connections have kept statements (for tests). */
    int connectionsWithKeptStatements() {
        return kept.connections();
    }

    /**
     * Runs {@code work} in one transaction: every store call inside it on this thread joins it, and
     * any exception rolls all of it back: one transaction per state change.
     */
    @Override
    public <T> T inTransaction(Supplier<T> work) {
        try {
            if (writers != null) {
                return writers.inTransaction(jdbi, work);
            }
            return jdbi.inTransaction(handle -> work.get());
        } catch (JdbiException e) {
            throw translate(e);
        }
    }

    /**
     * Runs {@code work}, which writes, with a handle: inside the thread's transaction if there is
     * one; otherwise, on SQLite, as a transaction of its own that waits its writer's turn
     * ({@link SqliteWriters}), on PostgreSQL as it is. Every store write outside a caller's
     * transaction goes through here (SQLite's test suites fail on one that does not).
     */
    public <T> T write(HandleCallback<T, RuntimeException> work) {
        if (writers == null) {
            return withHandle(work);
        }
        return inTransaction(() -> withHandle(work));
    }

    /**
     * Runs {@code work} with SQLite's writers held off, if their turn comes within {@code within};
     * false when it did not (a checkpoint that holds the write lock while it waits for readers).
     */
    boolean whileWritersWait(Duration within, Runnable work) {
        if (writers == null) {
            work.run();
            return true;
        }
        return writers.whileHeld(within, work);
    }

    /** For tests: one checkpoint of SQLite's log as the background thread makes them, starting the log over. */
    void checkpointNow() {
        if (checkpoints != null) {
            checkpoints.checkpoint(true);
        }
    }

    /** For tests: the SQLite write statements that ran outside a transaction (none, when every store is right). */
    java.util.Set<String> writesOutsideTransactions() {
        return writers == null ? java.util.Set.of() : writers.writesOutside();
    }

    public void inTransaction(Runnable work) {
        inTransaction(() -> {
            work.run();
            return null;
        });
    }

    /** Whether the database answers a trivial query within {@code timeout} (readiness, spec 1 §4). */
    /**
     * Publishes the pool's meters ({@code hikaricp_connections_active}, {@code _pending}, acquire
     * times…, tagged {@code pool="klave-db"}) through HikariCP's own Micrometer binding. Once.
     */
    public void measure(MeterRegistry registry) {
        dataSource.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(requireNonNull(registry,
                "registry is null")));
    }

    public boolean answersWithin(Duration timeout) {
        CompletableFuture<Boolean> answer = CompletableFuture.supplyAsync(this::answers,
                runnable -> Thread.ofVirtual().name("klave-db-ping").start(runnable));
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            return false;
        } catch (ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean answers() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid(2);
        } catch (SQLException e) {
            LOG.debug("database check failed: {}", e.getMessage());
            return false;
        }
    }

    /** Closes the pool; connections in use are closed as they are returned. */
    @Override
    public void close() {
        if (checkpoints != null) {
            checkpoints.close();
        }
        dataSource.close();
    }

    private RuntimeException translate(JdbiException e) {
        if (SqlErrors.isUniqueViolation(e)) {
            return new AlreadyExistsException("unique key taken", e);
        }
        if (SqlErrors.isBusy(e)) {
            // SQLite's lock stayed taken by another process past the busy timeout: a wait that ran out.
            return new DatabaseUnavailableException("database busy: " + rootMessage(e), e);
        }
        if (e instanceof ConnectionException || SqlErrors.isConnectionFailure(e)) {
            return new DatabaseUnavailableException("database unavailable: " + rootMessage(e), e);
        }
        return e;
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
