package dev.klave.testing;

import dev.klave.Klave;
import dev.klave.config.Settings;
import dev.klave.http.RouteProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.UnaryOperator;

/** A Klave running inside the test JVM on a free loopback port, SQLite in its own temp folder. */
public final class TestingKlave implements AutoCloseable {
    private final Klave klave;
    private final Path directory;
    private final TestingHttp http;

    private TestingKlave(Klave klave, Path directory) {
        this.klave = klave;
        this.directory = directory;
        this.http = new TestingHttp(klave.port());
    }

    public static TestingKlave start(Clock clock, UnaryOperator<TestingSettings> settings, RouteProvider... routes) {
        try {
            Path directory = Files.createTempDirectory("klave-test-");
            Settings built = settings.apply(TestingSettings.sqliteIn(directory)).build();
            return new TestingKlave(Klave.start(built, clock, List.of(routes)), directory);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public Klave klave() {
        return klave;
    }

    public TestingHttp http() {
        return http;
    }

    public int port() {
        return klave.port();
    }

    @Override
    public void close() {
        klave.close();
        TestingDatabase.deleteTree(directory);
    }
}
