package dev.klave.testing;

import dev.klave.Klave;
import dev.klave.config.DatabaseUrl;
import dev.klave.config.Settings;
import dev.klave.http.RouteProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import java.util.function.UnaryOperator;

/** A Klave running inside the test JVM on a free loopback port, SQLite in its own temp folder. */
public final class TestingKlave implements AutoCloseable {
    private final Klave klave;
    private final Path directory;
    private final TestingHttp http;
    private final Runnable cleanup;

    private TestingKlave(Klave klave, Path directory, Runnable cleanup) {
        this.klave = klave;
        this.directory = directory;
        this.http = klave.settings().tls()
                .map(tls -> new TestingHttp(klave.port(), tls.certificate()))
                .orElseGet(() -> new TestingHttp(klave.port()));
        this.cleanup = cleanup;
    }

    public static TestingKlave start(Clock clock, UnaryOperator<TestingSettings> settings, RouteProvider... routes) {
        Path directory = temporaryDirectory();
        Settings built = settings.apply(TestingSettings.sqliteIn(directory)).build();
        return new TestingKlave(Klave.start(built, clock, List.of(routes)), directory, () -> {});
    }

    /** A Klave whose forge is {@code forge} (its settings applied before {@code settings}). */
    /**
     * A Klave on SQLite serving HTTPS at its own address, its kubeconfigs carrying the test CA:
     * what the real kubectl needs, since it sends a bearer token only over TLS.
     */
    public static TestingKlave startHttps(Clock clock, UnaryOperator<TestingSettings> settings) {
        return start(clock, https(settings));
    }

    /** As {@link #startHttps}, on a PostgreSQL database of its own, dropped when it closes. */
    public static TestingKlave startHttpsOnPostgres(Clock clock, UnaryOperator<TestingSettings> settings) {
        return startOnPostgres(clock, https(settings));
    }

    /** {@code settings} after those of HTTPS at Klave's own address, with a test certificate. */
    private static UnaryOperator<TestingSettings> https(UnaryOperator<TestingSettings> settings) {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        TestingTls tls = TestingTls.generate();
        int chosen = port;
        return base -> settings.apply(base.with("SERVICE_LISTEN", "127.0.0.1:" + chosen)
                .with("SERVICE_BASE_URL", "https://127.0.0.1:" + chosen)
                .with("SERVICE_TLS_CERT", tls.certificate().toString())
                .with("SERVICE_TLS_KEY", tls.privateKey().toString())
                .with("SERVICE_KUBECONFIG_CA", tls.certificate().toString()));
    }

    /** A Klave on SQLite whose calls out trust {@code outboundTls} (a test's own HTTPS servers). */
    public static TestingKlave startTrusting(Clock clock, SSLContext outboundTls,
            UnaryOperator<TestingSettings> settings) {
        Path directory = temporaryDirectory();
        Settings built = settings.apply(TestingSettings.sqliteIn(directory)).build();
        return new TestingKlave(Klave.start(built, clock, List.of(), outboundTls), directory, () -> {});
    }

    /** As {@link #startTrusting}, on an existing PostgreSQL database (replicas, restarts). */
    public static TestingKlave startTrustingOn(DatabaseUrl.Postgres database, Clock clock, SSLContext outboundTls,
            UnaryOperator<TestingSettings> settings) {
        return startTrusting(clock, outboundTls, base -> settings.apply(
                base.with("SERVICE_DATABASE_URL", TestingPostgres.urlOf(database))));
    }

    public static TestingKlave startWithForge(Clock clock, TestingForge forge, UnaryOperator<TestingSettings> settings) {
        Path directory = temporaryDirectory();
        TestingSettings base = TestingSettings.sqliteIn(directory);
        for (java.util.Map.Entry<String, String> setting : forge.settings().entrySet()) {
            base = base.with(setting.getKey(), setting.getValue());
        }
        Settings built = settings.apply(base).build();
        return new TestingKlave(Klave.start(built, clock, List.of(), forge.clientTls()), directory, () -> {});
    }

    /** As {@link #startWithForge}, on {@code database} (PostgreSQL), which the caller owns and drops. */
    public static TestingKlave startOnWithForge(DatabaseUrl.Postgres database, Clock clock, TestingForge forge,
            UnaryOperator<TestingSettings> settings) {
        return startWithForge(clock, forge, base -> settings.apply(
                base.with("SERVICE_DATABASE_URL", TestingPostgres.urlOf(database))));
    }

    /**
     * A Klave whose base URL is its real address ({@code http://127.0.0.1:<free port>}), for flows
     * that check the host a browser comes back to (OIDC).
     */
    public static TestingKlave startAtOwnAddress(Clock clock, UnaryOperator<TestingSettings> settings) {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        int chosen = port;
        return start(clock, base -> settings.apply(base.with("SERVICE_LISTEN", "127.0.0.1:" + chosen)
                .with("SERVICE_BASE_URL", "http://127.0.0.1:" + chosen)));
    }

    /** A Klave on {@code database} (PostgreSQL), which the caller owns and drops. */
    public static TestingKlave startOn(DatabaseUrl.Postgres database, Clock clock,
            UnaryOperator<TestingSettings> settings) {
        Path directory = temporaryDirectory();
        Settings built = settings.apply(TestingSettings.sqliteIn(directory)
                .with("SERVICE_DATABASE_URL", TestingPostgres.urlOf(database))).build();
        return new TestingKlave(Klave.start(built, clock, List.of()), directory, () -> {});
    }

    /** A Klave on a PostgreSQL database of its own, dropped when it closes. */
    public static TestingKlave startOnPostgres(Clock clock, UnaryOperator<TestingSettings> settings) {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        TestingKlave started = startOn(database, clock, settings);
        return new TestingKlave(started.klave, started.directory, () -> TestingPostgres.drop(database));
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("klave-test-");
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

    /**
     * Stops Klave and fails the test if a call to a cluster was handed to a transport and never
     * ended (issue 52: the chain's third rule) — checked once the shutdown has cut what was open.
     */
    @Override
    public void close() {
        klave.close();
        try {
            Eventually.until("every call to a cluster ended", Duration.ofSeconds(5),
                    () -> klave.services().chain().unended().isEmpty());
        } catch (AssertionError e) {
            throw new AssertionError("calls to a cluster never ended: " + klave.services().chain().unended(), e);
        } finally {
            TestingDatabase.deleteTree(directory);
            cleanup.run();
        }
    }
}
