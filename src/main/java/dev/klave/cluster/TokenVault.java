package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals bootstrap secrets for storage with AES-256-GCM. The cluster id is the associated data, so
 * a sealed value copied onto another cluster's row does not open. A value sealed under another
 * encryption key does not open either: {@link SealedSecretsUnreadable} tells the caller to fail
 * closed for that cluster only.
 */
public final class TokenVault {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random;

    public TokenVault(byte[] key, SecureRandom random) {
        if (key.length != 32) {
            throw new IllegalArgumentException("AES-256 needs a 32-byte key");
        }
        this.key = new SecretKeySpec(key.clone(), "AES");
        this.random = requireNonNull(random, "random is null");
    }

    public String seal(ClusterId cluster, BootstrapSecrets secrets) {
        ObjectNode json = MAPPER.createObjectNode()
                .put("server", secrets.server().toString())
                .put("ca", secrets.caPem())
                .put("proxyToken", secrets.proxyToken())
                .put("reconcilerToken", secrets.reconcilerToken());
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            random.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(cluster));
            byte[] sealed = cipher.doFinal(MAPPER.writeValueAsBytes(json));
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(nonce.length + sealed.length)
                    .put(nonce).put(sealed).array());
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot seal cluster secrets", e);
        }
    }

    public BootstrapSecrets open(ClusterId cluster, String sealed) {
        try {
            byte[] bytes = Base64.getDecoder().decode(sealed);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
            cipher.updateAAD(associatedData(cluster));
            JsonNode json = MAPPER.readTree(cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES));
            return BootstrapSecrets.of(json.path("server").asText(), json.path("ca").asText(),
                    json.path("proxyToken").asText(), json.path("reconcilerToken").asText());
        } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
            throw new SealedSecretsUnreadable(cluster);
        }
    }

    private static byte[] associatedData(ClusterId cluster) {
        return ("klave cluster " + cluster.value()).getBytes(StandardCharsets.US_ASCII);
    }

    /** The stored secrets of a cluster do not open: the encryption key changed, or the row was tampered with. */
    public static final class SealedSecretsUnreadable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SealedSecretsUnreadable(ClusterId cluster) {
            super("the stored tokens of cluster " + cluster + " cannot be decrypted (was SERVICE_ENCRYPTION_KEY changed?)");
        }
    }
}
