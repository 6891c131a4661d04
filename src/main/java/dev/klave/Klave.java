package dev.klave;

import static java.util.Objects.requireNonNull;

import dev.klave.config.EncryptionKeyFile;
import dev.klave.config.ExtraCertificates;
import dev.klave.config.ForgeSettings;
import dev.klave.config.MasterKey;
import dev.klave.config.OidcSettings;
import dev.klave.config.Settings;
import dev.klave.http.ApiRoutes;
import dev.klave.http.KlaveHttpServer;
import dev.klave.http.RouteProvider;
import dev.klave.http.WebAssets;
import dev.klave.login.SignInMethods;
import dev.klave.metrics.Metrics;
import dev.klave.metrics.StateGauges;
import dev.klave.store.Database;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running service: the composition root that wires settings, storage, domain services and
 * the HTTP server, and takes them down again in the right order.
 */
public final class Klave implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Klave.class);

    private final Settings settings;
    private final Database database;
    private final Services services;
    private final KlaveHttpServer server;
    private final Metrics metrics;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Klave(Settings settings, Database database, Services services, KlaveHttpServer server, Metrics metrics) {
        this.settings = settings;
        this.database = database;
        this.services = services;
        this.server = server;
        this.metrics = metrics;
    }

    /** Starts Klave with its own routes plus {@code extraRoutes} (tests add probes here). */
    public static Klave start(Settings settings, Clock clock, List<RouteProvider> extraRoutes) {
        // Calls to the forge and the OIDC provider trust the JDK's CAs plus SSL_CERT_FILE's.
        return start(settings, clock, extraRoutes, ExtraCertificates.tlsContext(settings.extraCertificates()));
    }

    /**
     * As above, trusting {@code outboundTls} for calls to the forge and the OIDC provider (tests:
     * their simulators' CAs).
     */
    public static Klave start(Settings settings, Clock clock, List<RouteProvider> extraRoutes, SSLContext outboundTls) {
        requireNonNull(settings, "settings is null");
        requireNonNull(clock, "clock is null");
        SecureRandom random = new SecureRandom();
        MasterKey masterKey = EncryptionKeyFile.resolve(settings.encryptionKey(), random);
        WebAssets assets = WebAssets.fromClasspath();
        Database database = Database.open(settings.database());
        Metrics metrics = Metrics.from(settings.metricsListen());
        try {
            if (metrics.enabled()) {
                database.measure(metrics.registry());
            }
            Services services = Services.create(database, settings, masterKey, SignInMethods.from(settings), clock,
                random, outboundTls, metrics.registry());
            StateGauges.bind(metrics.registry(), services.openCalls(), services.forgeSync(),
                    services.oidcProvider());
            if (services.externalSignInLeavesNoAdmin()) {
                // Spec 1 §5 "Break-glass": Klave still starts, so that the CLI can fix it.
                LOG.error("forge or OIDC sign-in is on, but no enabled administrator can sign in: link one to "
                        + "the forge, or mark one break-glass (klave user set-break-glass <login>)");
            }
            if (settings.forge().filter(ForgeSettings::plainHttp).isPresent()) {
                LOG.warn("FORGE_URL or FORGE_API_URL uses plain http: sign-in codes and tokens cross the network "
                        + "unencrypted; use https outside a test or a trusted network");
            }
            if (settings.oidc().filter(OidcSettings::plainHttp).isPresent()) {
                LOG.warn("OIDC_ISSUER uses plain http: sign-in codes and tokens cross the network unencrypted; "
                        + "use https outside a test or a trusted network");
            }
            ApiRoutes routes = new ApiRoutes(services.openCalls()::recheckNow);
            services.routes().forEach(provider -> provider.register(routes));
            extraRoutes.forEach(provider -> provider.register(routes));
            // The audit writer and the stream guard run before the first request can arrive.
            services.start();
            KlaveHttpServer server;
            try {
                // Its own listener, never the public one (README "Metrics"); a port taken stops the start.
                metrics.start();
                server = KlaveHttpServer.start(settings, routes, services.authenticator(),
                        new ReplicaReadiness(database::answersWithin, services.auditWriter()), assets,
                        services.proxy(), services.network());
            } catch (RuntimeException e) {
                services.close();
                throw e;
            }
            LOG.info("Klave listening on {} (public address {})", describe(settings, server.port()),
                    settings.baseUrl());
            return new Klave(settings, database, services, server, metrics);
        } catch (RuntimeException e) {
            metrics.close();
            database.close();
            throw e;
        }
    }

    private static String describe(Settings settings, int port) {
        String host = settings.listen().host();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    public int port() {
        return server.port();
    }

    /** The settings it runs with (the CLI reads the same; tests read their TLS and keys). */
    public Settings settings() {
        return settings;
    }

    /** Its database (the CLI opens the same; tests seed and read rows through its stores). */
    public Database database() {
        return database;
    }

    /** What tests reach inside this running replica, where nothing a user does would reach it. */
    public TestHooks hooks() {
        return services.hooks();
    }

    /** The meters, and the port {@code /metrics} is served on when {@code SERVICE_METRICS_LISTEN} is set. */
    public Metrics metrics() {
        return metrics;
    }

    /**
     * Graceful stop (SIGTERM): readiness fails first ({@code SERVICE_SHUTDOWN_DELAY} before the
     * listener closes), requests in flight finish within {@code SERVICE_SHUTDOWN_TIMEOUT}, and the
     * database pool closes last.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        LOG.info("stopping Klave: new requests accepted for {} more, then up to {} for those in flight",
                settings.shutdownDelay(), settings.shutdownTimeout());
        server.startDraining();
        // Streams never finish by themselves: cut them first, recorded as cut by the restart.
        services.openCalls().cutAll();
        // Tools waiting for a person's decision answer with what they have (spec 3: call again).
        services.approvals().close();
        boolean clean = server.shutdown(settings.shutdownDelay(), settings.shutdownTimeout());
        services.close();
        metrics.close();
        database.close();
        LOG.info("Klave stopped{}", clean ? "" : " (some requests were cut off)");
    }
}
