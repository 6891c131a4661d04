package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made at start-up, like the one kubeadm writes for a fresh cluster. EC
 * P-256 keys keep generation fast; kubectl (Go crypto/tls) accepts them.
 */
final class CertificateAuthority {
    private static final Duration VALIDITY = Duration.ofDays(2);

    private final KeyPair keyPair;
    private final X509Certificate certificate;
    private final SecureRandom random;

    private CertificateAuthority(KeyPair keyPair, X509Certificate certificate, SecureRandom random) {
        this.keyPair = keyPair;
        this.certificate = certificate;
        this.random = random;
    }

    static CertificateAuthority generate(String commonName, SecureRandom random) {
        requireNonNull(commonName, "commonName is null");
        requireNonNull(random, "random is null");
        KeyPair keyPair = newKeyPair(random);
        X500Name subject = new X500Name("CN=" + commonName);
        Instant now = Instant.now();
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    subject, serial(random), Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(VALIDITY)), subject, keyPair.getPublic());
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
            builder.addExtension(Extension.subjectKeyIdentifier, false,
                    extensions.createSubjectKeyIdentifier(keyPair.getPublic()));
            return new CertificateAuthority(keyPair, sign(builder, keyPair), random);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot create the simulator CA", e);
        }
    }

    X509Certificate certificate() {
        return certificate;
    }

    String certificatePem() {
        return pem(certificate);
    }

    /** A serving certificate for the loopback names kubectl and Klave dial. */
    ServerIdentity issueServerCertificate(List<String> dnsNames, List<String> ipAddresses) {
        KeyPair serverKeys = newKeyPair(random);
        Instant now = Instant.now();
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    certificate, serial(random), Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(VALIDITY)), new X500Name("CN=kube-apiserver"), serverKeys.getPublic());
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            GeneralName[] names = new GeneralName[dnsNames.size() + ipAddresses.size()];
            int index = 0;
            for (String dnsName : dnsNames) {
                names[index++] = new GeneralName(GeneralName.dNSName, dnsName);
            }
            for (String ipAddress : ipAddresses) {
                names[index++] = new GeneralName(GeneralName.iPAddress, ipAddress);
            }
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(Extension.extendedKeyUsage, false,
                    new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            builder.addExtension(Extension.authorityKeyIdentifier, false,
                    extensions.createAuthorityKeyIdentifier(certificate));
            return new ServerIdentity(serverKeys.getPrivate(), sign(builder, keyPair), certificate);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot issue the simulator serving certificate", e);
        }
    }

    static String pem(Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuerKeys)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static KeyPair newKeyPair(SecureRandom random) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), random);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no EC key generator", e);
        }
    }

    private static BigInteger serial(SecureRandom random) {
        return new BigInteger(64, random).abs().add(BigInteger.ONE);
    }
}
