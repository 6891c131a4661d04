package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The CA certificates of {@code SSL_CERT_FILE} (PEM, one or more), trusted for every call Klave
 * makes to an identity provider or the forge <em>in addition to</em> the JDK's public CAs (spec 2
 * §5: a provider whose own CA is private).
 */
public final class ExtraCertificates {
    private final Path file;
    private final List<X509Certificate> certificates;

    private ExtraCertificates(Path file, List<X509Certificate> certificates) {
        this.file = file;
        this.certificates = List.copyOf(certificates);
    }

    /** Reads every certificate of the PEM file; refuses a file that holds none. */
    public static ExtraCertificates read(Path file) {
        requireNonNull(file, "file is null");
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("cannot read the file");
        }
        List<X509Certificate> certificates = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certificates.add((X509Certificate) certificate);
            }
        } catch (IOException | GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("not a PEM file of certificates");
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException("holds no certificate");
        }
        return new ExtraCertificates(file, certificates);
    }

    public Path file() {
        return file;
    }

    public List<X509Certificate> certificates() {
        return certificates;
    }

    /** A TLS context trusting the JDK's CAs and, when given, these. */
    public static SSLContext tlsContext(Optional<ExtraCertificates> extra) {
        try {
            if (extra.isEmpty()) {
                return SSLContext.getDefault();
            }
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int n = 0;
            for (X509Certificate certificate : defaultTrust().getAcceptedIssuers()) {
                store.setCertificateEntry("jdk-" + n++, certificate);
            }
            for (X509Certificate certificate : extra.get().certificates) {
                store.setCertificateEntry("extra-" + n++, certificate);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build the TLS trust of " + extra.map(ExtraCertificates::file), e);
        }
    }

    private static X509TrustManager defaultTrust() throws GeneralSecurityException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init((KeyStore) null);
        for (var manager : factory.getTrustManagers()) {
            if (manager instanceof X509TrustManager x509) {
                return x509;
            }
        }
        throw new GeneralSecurityException("the JDK has no X.509 trust manager");
    }

    @Override
    public String toString() {
        return "ExtraCertificates[" + file + ", " + certificates.size() + " certificates]";
    }
}
