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
 * Which TLS implementation the server and the proxy's cluster connections use. OpenSSL
 * (BoringSSL from netty-tcnative) carries upgraded streams (exec, port-forward) about 40 % faster
 * than the JDK's TLS
 * (bench/RESULTS.md). Where the native libraries cannot load, Klave says so once and uses the
 * JDK's. The JDK's TLS is the default (see {@link TlsEngine#OPENSSL} for why).
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
            LOG.info("TLS engine: the JDK's");
            return new JdkSSLEngineOptions();
        }
        if (OpenSsl.isAvailable()) {
            LOG.warn("TLS engine: {} (SERVICE_TLS_ENGINE=openssl: faster, but an exec or cp stream that the "
                    + "cluster closes first may lose its last bytes; see bench/RESULTS.md)", OpenSsl.versionString());
            return new OpenSSLEngineOptions().setSessionCacheEnabled(true);
        }
        LOG.warn("TLS engine: the JDK's (OpenSSL cannot be loaded here: {})", OpenSsl.unavailabilityCause().toString());
        return new JdkSSLEngineOptions();
    }
}
