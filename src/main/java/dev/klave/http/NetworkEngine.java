package dev.klave.http;

import io.netty.handler.ssl.OpenSsl;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.SSLEngineOptions;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which TLS implementation and socket transport the server and the proxy's cluster connections
 * use. OpenSSL (BoringSSL, shipped for Linux x86-64) and epoll cost the proxy far less CPU per
 * request than the JDK's TLS and NIO (bench/RESULTS.md); where they cannot load, Klave says so
 * once and uses the JDK's. {@code SERVICE_TLS_ENGINE=jdk} forces the JDK's TLS.
 */
public final class NetworkEngine {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkEngine.class);
    private static final SSLEngineOptions TLS = choose();

    private NetworkEngine() {}

    /** The TLS engine for every listener and client Klave opens. */
    public static SSLEngineOptions tls() {
        return TLS.copy();
    }

    /** A Vert.x instance on epoll when it is available (Vert.x falls back to NIO by itself). */
    public static Vertx vertx() {
        Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        LOG.info("network transport: {}", vertx.isNativeTransportEnabled() ? "epoll" : "NIO");
        return vertx;
    }

    private static SSLEngineOptions choose() {
        String wanted = System.getenv().getOrDefault("SERVICE_TLS_ENGINE", "openssl").strip().toLowerCase(Locale.ROOT);
        if (wanted.equals("jdk")) {
            LOG.info("TLS engine: the JDK's (SERVICE_TLS_ENGINE=jdk)");
            return new JdkSSLEngineOptions();
        }
        if (OpenSsl.isAvailable()) {
            LOG.info("TLS engine: {}", OpenSsl.versionString());
            return new OpenSSLEngineOptions().setSessionCacheEnabled(true);
        }
        LOG.warn("TLS engine: the JDK's (OpenSSL cannot be loaded here: {})", OpenSsl.unavailabilityCause().toString());
        return new JdkSSLEngineOptions();
    }
}
