package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.config.DatabaseUrl;
import java.nio.file.Files;
import dev.klave.testing.TestingDatabase;
import java.nio.file.Path;
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

            long deadline = System.nanoTime() + 3 * SqliteCheckpoints.INTERVAL.toNanos();
            while (Files.size(file) < before + 8 * 1024 * 1024 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(Files.size(file)).isGreaterThan(before + 8 * 1024 * 1024);
        } finally {
            TestingDatabase.deleteTree(directory);
        }
    }
}
