package dev.klave.config;

import java.util.Locale;

/**
 * {@code SERVICE_TLS_ENGINE}: which TLS implementation serves clients (kubectl, browsers, CI) and
 * carries upgraded connections (exec, attach, port-forward) to clusters. Ordinary requests to
 * clusters use the JDK's TLS: OpenSSL there measured no faster (bench/RESULTS.md).
 */
public enum TlsEngine {
    /** BoringSSL through netty-tcnative (the default); the JDK's TLS where it cannot load. */
    OPENSSL,
    /** The JDK's own TLS. */
    JDK;

    static TlsEngine parse(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "openssl" -> OPENSSL;
            case "jdk" -> JDK;
            default -> throw new IllegalArgumentException("use openssl or jdk");
        };
    }
}
