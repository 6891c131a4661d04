package dev.klave.testing;

import dev.klave.config.DatabaseUrl;
import dev.klave.store.Database;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A migrated database of one dialect, owned by one test class and removed afterwards. */
public final class TestingDatabase implements AutoCloseable {
    private final Database database;
    private final Runnable cleanup;
    private final String name;

    private TestingDatabase(Database database, Runnable cleanup, String name) {
        this.database = database;
        this.cleanup = cleanup;
        this.name = name;
    }

    public static TestingDatabase sqlite() {
        Path directory;
        try {
            directory = Files.createTempDirectory("klave-sqlite-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Database database = Database.open(new DatabaseUrl.Sqlite(directory.resolve("klave.db")));
        return new TestingDatabase(database, () -> deleteTree(directory), "sqlite");
    }

    public static TestingDatabase postgres() {
        DatabaseUrl.Postgres url = TestingPostgres.freshDatabase();
        Database database = Database.open(url);
        return new TestingDatabase(database, () -> TestingPostgres.drop(url), "postgres");
    }

    public Database database() {
        return database;
    }

    @Override
    public void close() {
        database.close();
        cleanup.run();
    }

    @Override
    public String toString() {
        return name;
    }

    public static void deleteTree(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
