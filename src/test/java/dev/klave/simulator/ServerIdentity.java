package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** A serving key and its chain; turns into the TLS context the listener hands each connection. */
record ServerIdentity(PrivateKey key, X509Certificate certificate, X509Certificate issuer) {
    ServerIdentity {
        requireNonNull(key, "key is null");
        requireNonNull(certificate, "certificate is null");
        requireNonNull(issuer, "issuer is null");
    }

    SSLContext sslContext() {
        try {
            char[] password = "simulator".toCharArray();
            KeyStore keyStore = KeyStore.getInstance("PKCS12");
            keyStore.load(null, null);
            keyStore.setKeyEntry("server", key, password, new Certificate[] {certificate, issuer});
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(keyStore, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), null, null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the simulator TLS context", e);
        }
    }
}
