package dev.klave.config;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.util.Base64;

/**
 * Reads the forge App's private key (spec 1 §5 "Forge App configuration"): PEM, RSA, in PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}, what the forge hands out) or PKCS#8 ({@code BEGIN PRIVATE KEY});
 * the whole PEM may also come on one line with literal {@code \n} sequences, as environment files
 * often carry it. Error messages never quote the key.
 */
public final class RsaPrivateKeyPem {
    private static final String PKCS1 = "RSA PRIVATE KEY";
    private static final String PKCS8 = "PRIVATE KEY";
    /** The forge accepts App keys of 2048 bits and more; shorter keys are refused here, not at the first login. */
    private static final int MIN_BITS = 2048;

    private RsaPrivateKeyPem() {}

    public static RSAPrivateKey parse(String text) {
        String pem = text.replace("\\n", "\n").replace("\r", "").strip();
        String label = pem.startsWith("-----BEGIN " + PKCS1 + "-----") ? PKCS1
                : pem.startsWith("-----BEGIN " + PKCS8 + "-----") ? PKCS8 : null;
        if (label == null) {
            throw new IllegalArgumentException("must be a PEM RSA private key (BEGIN RSA PRIVATE KEY or BEGIN PRIVATE KEY)");
        }
        String end = "-----END " + label + "-----";
        int endAt = pem.indexOf(end);
        if (endAt < 0) {
            throw new IllegalArgumentException("the PEM private key has no END line");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(pem.substring(("-----BEGIN " + label + "-----").length(), endAt));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the PEM private key is not valid base64");
        }
        RSAPrivateKey key;
        try {
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            key = (RSAPrivateKey) (label.equals(PKCS1) ? rsa.generatePrivate(pkcs1(der))
                    : rsa.generatePrivate(new PKCS8EncodedKeySpec(der)));
        } catch (GeneralSecurityException | IllegalArgumentException | IllegalStateException | ClassCastException e) {
            throw new IllegalArgumentException("the PEM private key cannot be read as an RSA key");
        }
        if (key.getModulus().bitLength() < MIN_BITS) {
            throw new IllegalArgumentException("the RSA private key is shorter than " + MIN_BITS + " bits");
        }
        if (!(key instanceof RSAPrivateCrtKey)) {
            throw new IllegalArgumentException("the RSA private key lacks its CRT parameters");
        }
        return key;
    }

    /** RFC 8017 §A.1.2 {@code RSAPrivateKey}, read with Bouncy Castle's ASN.1 parser. */
    private static RSAPrivateCrtKeySpec pkcs1(byte[] der) {
        org.bouncycastle.asn1.pkcs.RSAPrivateKey asn = org.bouncycastle.asn1.pkcs.RSAPrivateKey.getInstance(der);
        BigInteger[] parts = {asn.getModulus(), asn.getPublicExponent(), asn.getPrivateExponent(), asn.getPrime1(),
                asn.getPrime2(), asn.getExponent1(), asn.getExponent2(), asn.getCoefficient()};
        return new RSAPrivateCrtKeySpec(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], parts[7]);
    }
}
