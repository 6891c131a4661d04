package dev.klave.testing;

import dev.klave.AccountsWiring;
import dev.klave.Klave;
import dev.klave.TestHooks;
import dev.klave.account.Accounts;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.audit.ControlEvents;
import dev.klave.config.DatabaseUrl;
import dev.klave.config.EncryptionKeyFile;
import dev.klave.config.Settings;
import dev.klave.http.RouteProvider;
import dev.klave.login.SignInMethods;
import dev.klave.store.JdbiControlEventStore;
import dev.klave.store.JdbiExternalIdentityStore;
import java.security.SecureRandom;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import java.util.function.UnaryOperator;

/**
 * A Klave running inside the test JVM on a free loopback port, SQLite in its own temp folder.
 * A test reaches it as its users do — over HTTP ({@link #http()}), as the CLI does (accounts made
 * over its database and settings, {@link #accounts()}), reading the rows it wrote
 * ({@link #events()}, {@link #identities()}) — and otherwise only through {@link #hooks()}.
 */
public final class TestingKlave implements AutoCloseable {
    private final Klave klave;
    private final Clock clock;
    private final Path directory;
    private final TestingHttp http;
    private final Runnable cleanup;
    private Accounts accounts;

    private TestingKlave(Klave klave, Clock clock, Path directory, Runnable cleanup) {
        this.klave = klave;
        this.clock = clock;
        this.directory = directory;
        this.http = klave.settings().tls()
                .map(tls -> new TestingHttp(klave.port(), tls.certificate()))
                .orElseGet(() -> new TestingHttp(klave.port()));
        this.cleanup = cleanup;
    }

    public static TestingKlave start(Clock clock, UnaryOperator<TestingSettings> settings, RouteProvider... routes) {
        Path directory = temporaryDirectory();
        Settings built = settings.apply(TestingSettings.sqliteIn(directory)).build();
        return new TestingKlave(Klave.start(built, clock, List.of(routes)), clock, directory, () -> {});
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
        return new TestingKlave(Klave.start(built, clock, List.of(), outboundTls), clock, directory, () -> {});
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
        return new TestingKlave(Klave.start(built, clock, List.of(), forge.clientTls()), clock, directory, () -> {});
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
        return new TestingKlave(Klave.start(built, clock, List.of()), clock, directory, () -> {});
    }

    /** A Klave on a PostgreSQL database of its own, dropped when it closes. */
    public static TestingKlave startOnPostgres(Clock clock, UnaryOperator<TestingSettings> settings) {
        DatabaseUrl.Postgres database = TestingPostgres.freshDatabase();
        TestingKlave started = startOn(database, clock, settings);
        return new TestingKlave(started.klave, clock, started.directory, () -> TestingPostgres.drop(database));
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

    /** What a test may reach inside the running Klave where no user's way reaches ({@link TestHooks}). */
    public TestHooks hooks() {
        return klave.hooks();
    }

    /**
     * Creating and changing accounts as {@code klave user …} does: the accounts area alone, over
     * this Klave's database and settings (its key, its sign-in mode), on its clock.
     */
    public synchronized Accounts accounts() {
        if (accounts == null) {
            Settings settings = klave.settings();
            SecureRandom random = new SecureRandom();
            accounts = AccountsWiring.create(klave.database(), settings,
                    EncryptionKeyFile.resolve(settings.encryptionKey(), random), SignInMethods.from(settings), clock,
                    random).accounts();
        }
        return accounts;
    }

    /** The control events Klave wrote, read from its database. */
    public ControlEvents events() {
        return new ControlEvents(new JdbiControlEventStore(klave.database()), clock);
    }

    /** The accounts' forge and OIDC identities, in its database: seeded and read as a provider's sign-in leaves them. */
    public ExternalIdentityStore identities() {
        return new JdbiExternalIdentityStore(klave.database());
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
                    () -> klave.hooks().chain().unended().isEmpty());
        } catch (AssertionError e) {
            throw new AssertionError("calls to a cluster never ended: " + klave.hooks().chain().unended(), e);
        } finally {
            TestingDatabase.deleteTree(directory);
            cleanup.run();
        }
    }
}
