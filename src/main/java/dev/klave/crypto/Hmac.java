package dev.klave.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256 signatures in unpadded base64url, checked in constant time. */
public final class Hmac {
    private final SecretKeySpec key;

    public Hmac(byte[] key) {
        if (key.length < 32) {
            throw new IllegalArgumentException("HMAC key shorter than 256 bits");
        }
        this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
    }

    public String sign(String value) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(mac(value));
    }

    /** The same signature in lowercase hex: what webhook receivers compare (issue 41). */
    public String signHex(String value) {
        return java.util.HexFormat.of().formatHex(mac(value));
    }

    private byte[] mac(String value) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(value.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Whether {@code signature} is ours for {@code value}; time does not depend on where they differ. */
    public boolean verify(String value, String signature) {
        return MessageDigest.isEqual(sign(value).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII));
    }
}
