package dev.klave.testing;

import dev.klave.config.DatabaseUrl;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

/**
 * PostgreSQL for tests: the server at {@code KLAVE_TEST_POSTGRES_URL} (default
 * {@code postgres://postgres@127.0.0.1:5432/postgres}), or — when none answers there — an embedded
 * one started once for the whole test JVM, so that PostgreSQL tests never skip. Each caller gets a
 * database of its own.
 */
public final class TestingPostgres {
    private static final String DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";
    private static DatabaseUrl.Postgres server;
    private static EmbeddedPostgres embedded;

    private TestingPostgres() {}

    /** A new, empty database; drop it with {@link #drop}. */
    public static DatabaseUrl.Postgres freshDatabase() {
        return created("klave_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
    }

    /** The database {@code name}, dropped first if it exists: one that outlives its run (bench/scale --keep). */
    public static DatabaseUrl.Postgres namedDatabase(String name) {
        execute(server(), "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        return created(name);
    }

    private static DatabaseUrl.Postgres created(String name) {
        DatabaseUrl.Postgres admin = server();
        execute(admin, "CREATE DATABASE " + name);
        return new DatabaseUrl.Postgres(admin.host(), admin.port(), name, admin.user(), admin.password(),
                admin.query());
    }

    public static void drop(DatabaseUrl.Postgres database) {
        execute(server(), "DROP DATABASE IF EXISTS " + database.database() + " WITH (FORCE)");
    }

    /** The URL text of {@code database}, as an operator would write it in SERVICE_DATABASE_URL. */
    public static String urlOf(DatabaseUrl.Postgres database) {
        return "postgres://" + database.user() + database.password().map(p -> ":" + p).orElse("") + "@"
                + database.host() + ":" + database.port() + "/" + database.database()
                + database.query().map(q -> "?" + q).orElse("");
    }

    private static synchronized DatabaseUrl.Postgres server() {
        if (server != null) {
            return server;
        }
        String configured = Optional.ofNullable(System.getenv("KLAVE_TEST_POSTGRES_URL")).orElse(DEFAULT_URL);
        DatabaseUrl.Postgres candidate = (DatabaseUrl.Postgres) DatabaseUrl.parse(configured);
        if (answers(candidate)) {
            server = candidate;
            return server;
        }
        try {
            embedded = EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException("no PostgreSQL at " + candidate.display()
                    + " and the embedded one did not start", e);
        }
        server = (DatabaseUrl.Postgres) DatabaseUrl.parse(
                "postgres://postgres@127.0.0.1:" + embedded.getPort() + "/postgres");
        return server;
    }

    private static boolean answers(DatabaseUrl.Postgres url) {
        DriverManager.setLoginTimeout(3);
        try (Connection ignored = connect(url)) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static void execute(DatabaseUrl.Postgres url, String sql) {
        try (Connection connection = connect(url); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run '" + sql + "' on " + url.display(), e);
        }
    }

    private static Connection connect(DatabaseUrl.Postgres url) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", url.user());
        url.password().ifPresent(password -> properties.setProperty("password", password));
        properties.setProperty("connectTimeout", "3");
        return DriverManager.getConnection(url.jdbcUrl(), properties);
    }
}
