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
 * a {@code PASSIVE} checkpoint every second, which never blocks writers or readers, and keeps
 * the log's size bounded (see {@link #restart()}).
 */
final class SqliteCheckpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SqliteCheckpoints.class);
    static final Duration INTERVAL = Duration.ofSeconds(1);
    /** About 16 MiB of 4 KiB pages: a few seconds of the audit writer at full load. */
    static final int RESTART_AFTER_FRAMES = 4096;
    static final Duration RESTART_WAIT = Duration.ofMillis(250);

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

    /**
     * One passive checkpoint, then, when the log has grown past {@link #RESTART_AFTER_FRAMES}, one
     * that starts it over; failures are logged once until one succeeds again.
     */
    void checkpoint() {
        checkpoint(false);
    }

    /** As {@link #checkpoint()}; with {@code restart}, the log is started over however long it is (tests). */
    void checkpoint(boolean restart) {
        try {
            int frames = database.withHandle(handle -> handle.createQuery("PRAGMA wal_checkpoint(PASSIVE)")
                    .map((row, context) -> row.getInt(2)).one());
            if (restart || frames > RESTART_AFTER_FRAMES) {
                restart();
            }
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

    /**
     * SQLite starts the log over only when a writer finds it wholly copied and no reader in it.
     * Under steady writes (the audit writer commits every few milliseconds) a passive checkpoint
     * never sees that moment: in a benchmark run the log reached 882 MB, and its writes began to
     * wait on disk reads. A RESTART checkpoint holds writers off while it copies what the passive
     * one left, so the next commit writes the log from its start again, over pages still cached;
     * {@code journal_size_limit} (Database) cuts the file back to 64 MiB when it is larger.
     * TRUNCATE, tried first, emptied the file each time: its {@code ftruncate} and the fsync
     * after it held the audit writer off for 30-60 ms every two seconds at 500 req/s, the whole
     * p99 (strace, bench/RESULTS.md). It waits at most {@link #RESTART_WAIT} for Klave's writers'
     * turn and as long for readers; when that is not enough it gives up and the next second tries
     * again.
     */
    private void restart() {
        // Klave's writers wait for it in Java, as for one another (SqliteWriters), not in SQLite.
        database.whileWritersWait(RESTART_WAIT, () -> database.withHandle(handle -> {
            handle.execute("PRAGMA busy_timeout = " + RESTART_WAIT.toMillis());
            try {
                return handle.createQuery("PRAGMA wal_checkpoint(RESTART)").mapToMap().list();
            } finally {
                handle.execute("PRAGMA busy_timeout = " + Database.SQLITE_BUSY_TIMEOUT.toMillis());
            }
        }));
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
