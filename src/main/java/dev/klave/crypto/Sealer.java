package dev.klave.crypto;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for values kept at rest (a key derived from {@code SERVICE_ENCRYPTION_KEY}): a fresh
 * 96-bit nonce per value, and associated data naming what the value belongs to, so that a value
 * copied onto another row does not open.
 */
public final class Sealer {
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random;

    public Sealer(byte[] key, SecureRandom random) {
        if (key.length != 32) {
            throw new IllegalArgumentException("AES-256 needs a 32-byte key");
        }
        this.key = new SecretKeySpec(key.clone(), "AES");
        this.random = requireNonNull(random, "random is null");
    }

    /** Base64 of nonce and ciphertext. */
    public String seal(byte[] plain, byte[] associatedData) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            random.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData);
            byte[] sealed = cipher.doFinal(plain);
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(nonce.length + sealed.length)
                    .put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot seal", e);
        }
    }

    /**
     * @throws Unreadable when the value was sealed under another key or for other associated data,
     *     or was changed
     */
    public byte[] open(String sealed, byte[] associatedData) {
        try {
            byte[] bytes = Base64.getDecoder().decode(sealed);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
            cipher.updateAAD(associatedData);
            return cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES);
        } catch (GeneralSecurityException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new Unreadable();
        }
    }

    /** A sealed value that does not open. */
    public static final class Unreadable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unreadable() {
            super("a sealed value does not open (another SERVICE_ENCRYPTION_KEY, or changed)", null, false, false);
        }
    }
}
