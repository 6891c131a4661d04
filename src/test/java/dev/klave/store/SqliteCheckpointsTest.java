package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.config.DatabaseUrl;
import dev.klave.testing.Eventually;
import java.nio.file.Files;
import dev.klave.testing.TestingDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Commits leave the write-ahead log alone; the checkpoint thread copies it into the database file. */
class SqliteCheckpointsTest {
    @Test
    void commitsNeverCheckpointAndTheBackgroundThreadDoesWithinSeconds() throws Exception {
        Path directory = Files.createTempDirectory("klave-sqlite-");
        Path file = directory.resolve("klave.db");
        try (Database database = Database.open(new DatabaseUrl.Sqlite(file))) {
            int autocheckpoint = database.withHandle(handle -> handle.createQuery("PRAGMA wal_autocheckpoint")
                    .mapTo(Integer.class).one());
            assertThat(autocheckpoint).isZero();
            long before = Files.size(file);

            // About 8 MiB in one commit: well past the 1,000 pages at which a commit would checkpoint.
            database.inTransaction(() -> database.withHandle(handle -> {
                handle.execute("CREATE TABLE filler (bytes BLOB)");
                for (int i = 0; i < 128; i++) {
                    handle.execute("INSERT INTO filler VALUES (randomblob(65536))");
                }
                return null;
            }));
            assertThat(Files.size(file)).isLessThan(before + 1024 * 1024);

            Eventually.until("the background checkpoint copying the commit into the database file",
                    SqliteCheckpoints.INTERVAL.multipliedBy(3), () -> Files.size(file) > before + 8 * 1024 * 1024);
        } finally {
            TestingDatabase.deleteTree(directory);
        }
    }

    /**
     * The access generation's statement stays prepared between reads (KeptStatements). Read outside a
     * transaction, it must still end its read: an open read would pin the log, and no checkpoint
     * could start it over again.
     */
    @Test
    void aCounterReadWithItsKeptStatementLeavesNoReadOpen() throws Exception {
        Path directory = Files.createTempDirectory("klave-sqlite-");
        Path file = directory.resolve("klave.db");
        try (Database database = Database.open(new DatabaseUrl.Sqlite(file))) {
            JdbiAccessChanges changes = new JdbiAccessChanges(database);
            long before = changes.generation();
            Thread.ofPlatform().start(() -> database.write(handle -> handle.execute(
                    "UPDATE access_changes SET generation = generation + 1 WHERE id = 1"))).join();

            try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                    Statement statement = other.createStatement()) {
                statement.execute("PRAGMA busy_timeout = 200");
                try (ResultSet checkpoint = statement.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                    checkpoint.next();
                    assertThat(checkpoint.getInt(1)).as("checkpoint blocked by an open read").isZero();
                }
            }
            assertThat(changes.generation()).isEqualTo(before + 1);
        } finally {
            TestingDatabase.deleteTree(directory);
        }
    }

    @Test
    void underSteadyWritesTheLogStaysBounded() throws Exception {
        Path directory = Files.createTempDirectory("klave-sqlite-");
        Path file = directory.resolve("klave.db");
        Path log = directory.resolve("klave.db-wal");
        try (Database database = Database.open(new DatabaseUrl.Sqlite(file))) {
            database.withHandle(handle -> handle.execute("CREATE TABLE filler (bytes BLOB)"));
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong written = new AtomicLong();
            // Like the audit writer under load: a small commit every millisecond (at most 16 MiB
            // a second), never a pause long enough for a passive checkpoint to find the log
            // copied and idle.
            Thread writer = Thread.ofPlatform().start(() -> {
                while (writing.get()) {
                    database.write(handle -> handle.execute("INSERT INTO filler VALUES (randomblob(16384))"));
                    written.addAndGet(16384);
                    LockSupport.parkNanos(1_000_000);
                }
            });
            long largest = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (written.get() < 96L << 20 && System.nanoTime() < deadline) {
                largest = Math.max(largest, Files.exists(log) ? Files.size(log) : 0);
                Thread.sleep(20);
            }
            writing.set(false);
            writer.join();

            assertThat(written.get()).as("enough written to overflow an unbounded log").isGreaterThanOrEqualTo(96L << 20);
            // The threshold, a second of writes and room for SQLite's frame headers.
            assertThat(largest).isLessThan(48L << 20);
        } finally {
            TestingDatabase.deleteTree(directory);
        }
    }
}
