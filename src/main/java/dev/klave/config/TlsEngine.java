package dev.klave.config;

import java.util.Locale;

/** {@code SERVICE_TLS_ENGINE}: which TLS implementation serves clients and talks to clusters. */
public enum TlsEngine {
    /** BoringSSL through netty-tcnative; the JDK's TLS where its native library cannot load. */
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
