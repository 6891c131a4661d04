package dev.klave.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A self-signed certificate for 127.0.0.1 and localhost, as PEM files, for Klave serving HTTPS in tests. */
public record TestingTls(Path certificate, Path privateKey) {
    public static TestingTls generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(256);
            KeyPair keys = generator.generateKeyPair();
            X509Certificate certificate = selfSigned("klave-test", keys, "SHA256withECDSA");
            Path directory = Files.createTempDirectory("klave-tls-");
            Path certificateFile = directory.resolve("tls.crt");
            Path keyFile = directory.resolve("tls.key");
            Files.writeString(certificateFile, pem(certificate));
            Files.writeString(keyFile, pem(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(keys.getPrivate(), null)));
            return new TestingTls(certificateFile, keyFile);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A test HTTPS server's TLS and the client side that trusts it (and nothing else). */
    public record Pair(javax.net.ssl.SSLContext server, javax.net.ssl.SSLContext client) {}

    /**
     * A new RSA key and self-signed certificate for 127.0.0.1 and localhost named {@code name}: the
     * server's context holding them, and a client's trusting only that certificate.
     */
    public static Pair serverAndClient(String name) throws GeneralSecurityException, IOException {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair keys = rsa.generateKeyPair();
        X509Certificate certificate = selfSigned(name, keys, "SHA256withRSA");
        java.security.KeyStore keyStore = java.security.KeyStore.getInstance("PKCS12");
        keyStore.load(null, null);
        keyStore.setKeyEntry(name, keys.getPrivate(), new char[0], new X509Certificate[] {certificate});
        javax.net.ssl.KeyManagerFactory keyManagers = javax.net.ssl.KeyManagerFactory.getInstance(
                javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keyStore, new char[0]);
        javax.net.ssl.SSLContext server = javax.net.ssl.SSLContext.getInstance("TLS");
        server.init(keyManagers.getKeyManagers(), null, null);
        java.security.KeyStore trustStore = java.security.KeyStore.getInstance("PKCS12");
        trustStore.load(null, null);
        trustStore.setCertificateEntry(name, certificate);
        javax.net.ssl.TrustManagerFactory trust = javax.net.ssl.TrustManagerFactory.getInstance(
                javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trustStore);
        javax.net.ssl.SSLContext client = javax.net.ssl.SSLContext.getInstance("TLS");
        client.init(null, trust.getTrustManagers(), null);
        return new Pair(server, client);
    }

    /** A self-signed CA certificate for 127.0.0.1 and localhost, valid from an hour ago for two days. */
    public static X509Certificate selfSigned(String commonName, KeyPair keys, String signatureAlgorithm)
            throws GeneralSecurityException {
        return certificate(commonName, keys, signatureAlgorithm, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
    }

    /** A self-signed CA certificate for these DNS names only, valid from an hour ago for two days. */
    public static X509Certificate selfSignedFor(String commonName, KeyPair keys, String signatureAlgorithm,
            String... dnsNames) throws GeneralSecurityException {
        GeneralName[] names = new GeneralName[dnsNames.length];
        for (int i = 0; i < dnsNames.length; i++) {
            names[i] = new GeneralName(GeneralName.dNSName, dnsNames[i]);
        }
        return certificate(commonName, keys, signatureAlgorithm, new GeneralNames(names));
    }

    private static X509Certificate certificate(String commonName, KeyPair keys, String signatureAlgorithm,
            GeneralNames subjectNames) throws GeneralSecurityException {
        try {
            X500Name name = new X500Name("CN=" + commonName);
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(now.toEpochMilli()),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))), name,
                    keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.subjectAlternativeName, false, subjectNames);
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(signatureAlgorithm).build(keys.getPrivate())));
        } catch (OperatorCreationException | IOException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static String pem(Object object) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        }
        return text.toString();
    }
}
