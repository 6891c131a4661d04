package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;

/**
 * What the bootstrap JSON gives Klave for one cluster (spec 1 §2 "Cluster"): the API server's https
 * address, the CA that signs its certificate, and the tokens of the proxy and reconciler service
 * accounts. Checked when built; never printed.
 */
public final class BootstrapSecrets {
    private final URI server;
    private final String caPem;
    private final List<X509Certificate> caCertificates;
    private final String proxyToken;
    private final String reconcilerToken;
    private final Fingerprint fingerprint;

    /**
     * What tells one set of secrets from another by content: SHA-256 over the server, the CA and
     * both tokens. Secrets read twice (another replica sealed the same JSON again, the cache opened
     * them anew) have equal fingerprints; any changed part gives another. Kept in memory only, like
     * the tokens it is computed from, and never printed.
     */
    record Fingerprint(String sha256) {
        Fingerprint {
            requireNonNull(sha256, "sha256 is null");
        }

        @Override
        public String toString() {
            return "Fingerprint[redacted]";
        }
    }

    private BootstrapSecrets(URI server, String caPem, List<X509Certificate> caCertificates, String proxyToken,
            String reconcilerToken) {
        this.server = server;
        this.caPem = caPem;
        this.caCertificates = caCertificates;
        this.proxyToken = proxyToken;
        this.reconcilerToken = reconcilerToken;
        this.fingerprint = fingerprintOf(server.toString(), caPem, proxyToken, reconcilerToken);
    }

    private static Fingerprint fingerprintOf(String... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                // Each part's length first, so that no two different lists of parts hash the same bytes.
                digest.update(HexFormat.of().toHexDigits(bytes.length).getBytes(StandardCharsets.US_ASCII));
                digest.update(bytes);
            }
            return new Fingerprint(HexFormat.of().formatHex(digest.digest()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * @param ca the CA as PEM text, or as base64 of the PEM (the form kubeconfigs and the
     *     {@code ca.crt} of a token Secret use)
     * @throws dev.klave.messages.Refusal 400 naming the field that is wrong
     */
    public static BootstrapSecrets of(String server, String ca, String proxyToken, String reconcilerToken) {
        URI uri = serverUri(server);
        String pem = pem(ca);
        List<X509Certificate> certificates = certificates(pem);
        if (proxyToken == null || proxyToken.isBlank()) {
            throw Message.BOOTSTRAP_PROXY_TOKEN_EMPTY.refusal();
        }
        if (reconcilerToken == null || reconcilerToken.isBlank()) {
            throw Message.BOOTSTRAP_RECONCILER_TOKEN_EMPTY.refusal();
        }
        return new BootstrapSecrets(uri, pem, certificates, proxyToken.strip(), reconcilerToken.strip());
    }

    private static URI serverUri(String server) {
        if (server == null) {
            throw Message.BOOTSTRAP_SERVER_MISSING.refusal();
        }
        try {
            URI uri = new URI(server.strip());
            if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getRawQuery() != null
                    || uri.getRawFragment() != null) {
                throw Message.BOOTSTRAP_SERVER_INVALID.refusal();
            }
            String text = uri.toString();
            return URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        } catch (URISyntaxException e) {
            throw Message.BOOTSTRAP_SERVER_INVALID.refusal();
        }
    }

    private static String pem(String ca) {
        if (ca == null || ca.isBlank()) {
            throw Message.BOOTSTRAP_CA_MISSING.refusal();
        }
        String text = ca.strip();
        if (text.startsWith("-----BEGIN")) {
            return text + "\n";
        }
        try {
            String decoded = new String(Base64.getMimeDecoder().decode(text), StandardCharsets.US_ASCII).strip();
            if (decoded.startsWith("-----BEGIN")) {
                return decoded + "\n";
            }
        } catch (IllegalArgumentException notBase64) {
            // Reported below.
        }
        throw Message.BOOTSTRAP_CA_INVALID.refusal();
    }

    private static List<X509Certificate> certificates(String pem) {
        try {
            Collection<? extends java.security.cert.Certificate> parsed = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
            List<X509Certificate> certificates = parsed.stream().map(X509Certificate.class::cast).toList();
            if (certificates.isEmpty()) {
                throw Message.BOOTSTRAP_CA_INVALID.refusal();
            }
            return certificates;
        } catch (CertificateException e) {
            throw Message.BOOTSTRAP_CA_INVALID.refusal();
        }
    }

    public URI server() {
        return server;
    }

    public String caPem() {
        return caPem;
    }

    public List<X509Certificate> caCertificates() {
        return caCertificates;
    }

    public String proxyToken() {
        return proxyToken;
    }

    public String reconcilerToken() {
        return reconcilerToken;
    }

    /** What these secrets are by content; {@link ClusterEndpoints} keeps a client per fingerprint. */
    Fingerprint fingerprint() {
        return fingerprint;
    }

    @Override
    public String toString() {
        return "BootstrapSecrets[server=" + server + ", tokens=[redacted]]";
    }
}
