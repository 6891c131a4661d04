package dev.klave.config;

import java.util.Locale;

/**
 * {@code SERVICE_TLS_ENGINE}: which TLS implementation serves clients (kubectl, browsers, CI).
 * Connections to clusters always use the JDK's TLS: with OpenSSL on that side, exec streams that
 * the cluster closed first sometimes arrived short (bench/RESULTS.md), never with the JDK's.
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
