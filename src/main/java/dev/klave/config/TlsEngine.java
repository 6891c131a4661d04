package dev.klave.config;

import java.util.Locale;

/** {@code SERVICE_TLS_ENGINE}: which TLS implementation serves clients and talks to clusters. */
public enum TlsEngine {
    /**
     * BoringSSL through netty-tcnative; the JDK's TLS where its native library cannot load. Not the
     * default: with it, an upgraded stream (exec, cp) that the cluster closes first can arrive
     * short (bench/RESULTS.md), which the JDK's TLS never did in the same runs.
     */
    OPENSSL,
    /** The JDK's own TLS (the default). */
    JDK;

    static TlsEngine parse(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "openssl" -> OPENSSL;
            case "jdk" -> JDK;
            default -> throw new IllegalArgumentException("use openssl or jdk");
        };
    }
}
