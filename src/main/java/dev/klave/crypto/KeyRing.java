package dev.klave.crypto;

import static java.util.Objects.requireNonNull;

import dev.klave.config.MasterKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.KDF;
import javax.crypto.spec.HKDFParameterSpec;

/**
 * Keys for each purpose, derived from the master key ({@code SERVICE_ENCRYPTION_KEY}) with
 * HKDF-SHA256 (RFC 5869) and the purpose as {@code info}, so that a key for one purpose reveals
 * nothing about another and none of them is the master key itself.
 */
public final class KeyRing {
    private static final byte[] SALT = "klave/v1".getBytes(StandardCharsets.US_ASCII);

    private final MasterKey masterKey;

    public KeyRing(MasterKey masterKey) {
        this.masterKey = requireNonNull(masterKey, "masterKey is null");
    }

    /** 32 bytes for {@code purpose}; the same purpose always yields the same bytes. */
    public byte[] derive(KeyPurpose purpose) {
        try {
            KDF hkdf = KDF.getInstance("HKDF-SHA256");
            return hkdf.deriveData(HKDFParameterSpec.ofExtract()
                    .addIKM(masterKey.bytes())
                    .addSalt(SALT)
                    .thenExpand(purpose.info(), 32));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HKDF-SHA256 is part of every JDK 25", e);
        }
    }
}
