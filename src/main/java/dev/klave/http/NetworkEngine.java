package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.config.TlsEngine;
import io.netty.handler.ssl.OpenSsl;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.SSLEngineOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which TLS implementation and socket transport the server and the proxy's cluster connections
 * use. OpenSSL (BoringSSL from netty-tcnative) and epoll cost the proxy less CPU than the JDK's
 * TLS and NIO, and carry upgraded streams (exec, port-forward) about 40 % faster
 * (bench/RESULTS.md). Where the native libraries cannot load, Klave says so once and uses the
 * JDK's; {@code SERVICE_TLS_ENGINE=jdk} asks for the JDK's TLS outright.
 */
public final class NetworkEngine {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkEngine.class);

    private final SSLEngineOptions tls;

    public NetworkEngine(TlsEngine wanted) {
        requireNonNull(wanted, "wanted is null");
        this.tls = choose(wanted);
    }

    /** The TLS engine for every listener and client Klave opens. */
    public SSLEngineOptions tls() {
        return tls.copy();
    }

    /** A Vert.x instance on epoll when it is available (Vert.x falls back to NIO by itself). */
    public static Vertx vertx() {
        Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        LOG.info("network transport: {}", vertx.isNativeTransportEnabled() ? "epoll" : "NIO");
        return vertx;
    }

    private static SSLEngineOptions choose(TlsEngine wanted) {
        if (wanted == TlsEngine.JDK) {
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
