package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.config.TlsEngine;
import io.netty.handler.ssl.OpenSsl;
import io.vertx.core.Vertx;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.SSLEngineOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS implementation of Klave's listener and of upgraded connections to clusters. OpenSSL
 * (BoringSSL from netty-tcnative) carries exec and port-forward streams at nginx's speed where the
 * JDK's TLS reaches about 60-90 % (bench/RESULTS.md); where its native library cannot load, Klave
 * says so once and uses the JDK's. Ordinary requests to clusters keep the JDK's TLS (see
 * {@link TlsEngine}).
 */
public final class NetworkEngine {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkEngine.class);

    private final SSLEngineOptions tls;

    public NetworkEngine(TlsEngine wanted) {
        requireNonNull(wanted, "wanted is null");
        this.tls = choose(wanted);
    }

    /** The TLS engine of the listener. */
    public SSLEngineOptions tls() {
        return tls.copy();
    }

    /**
     * The Vert.x instance, on Java's NIO. Not on epoll: with Netty's epoll transport upgraded
     * streams still arrived short when the cluster closed its end first, where NIO delivered every
     * byte (bench/run, 16 MiB exec streams).
     */
    public static Vertx vertx() {
        return Vertx.vertx();
    }

    private static SSLEngineOptions choose(TlsEngine wanted) {
        if (wanted == TlsEngine.JDK) {
            LOG.info("TLS engine for clients and exec streams: the JDK's (SERVICE_TLS_ENGINE=jdk)");
            return new JdkSSLEngineOptions();
        }
        if (OpenSsl.isAvailable()) {
            LOG.info("TLS engine for clients and exec streams: {}", OpenSsl.versionString());
            return new OpenSSLEngineOptions().setSessionCacheEnabled(true);
        }
        LOG.warn("TLS engine for clients and exec streams: the JDK's (OpenSSL cannot be loaded here: {})",
                OpenSsl.unavailabilityCause().toString());
        return new JdkSSLEngineOptions();
    }
}
