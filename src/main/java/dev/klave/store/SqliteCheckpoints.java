package dev.klave.store;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies SQLite's write-ahead log back into the database file from a thread of its own. With
 * SQLite's automatic checkpoints the commit that fills the log does the copy and its fsync, and
 * every proxied request waiting on that commit for its audit row waits too (bench/RESULTS.md: the
 * p99 at 500 req/s). Connections therefore run with {@code wal_autocheckpoint = 0} and this does
 * a {@code PASSIVE} checkpoint every second, which never blocks writers or readers.
 */
final class SqliteCheckpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SqliteCheckpoints.class);
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("klave-sqlite-checkpoints").factory());
    private final Database database;
    private volatile boolean failing;

    SqliteCheckpoints(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    void start() {
        timer.scheduleWithFixedDelay(this::checkpoint, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One passive checkpoint; failures are logged once until one succeeds again. */
    void checkpoint() {
        try {
            database.withHandle(handle -> handle.createQuery("PRAGMA wal_checkpoint(PASSIVE)").mapToMap().list());
            if (failing) {
                failing = false;
                LOG.info("SQLite checkpoints work again");
            }
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.warn("SQLite checkpoint failed (the write-ahead log grows until one succeeds): {}", e.getMessage());
            }
        }
    }

    /** Stops the timer; SQLite checkpoints the log itself when the last connection closes. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
