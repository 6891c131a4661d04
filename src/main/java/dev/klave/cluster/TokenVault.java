package dev.klave.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.crypto.Sealer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * Seals bootstrap secrets for storage with AES-256-GCM. The cluster id is the associated data, so
 * a sealed value copied onto another cluster's row does not open. A value sealed under another
 * encryption key does not open either: {@link SealedSecretsUnreadable} tells the caller to fail
 * closed for that cluster only.
 */
public final class TokenVault {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Sealer sealer;

    public TokenVault(byte[] key, SecureRandom random) {
        this.sealer = new Sealer(key, random);
    }

    public String seal(ClusterId cluster, BootstrapSecrets secrets) {
        ObjectNode json = MAPPER.createObjectNode()
                .put("server", secrets.server().toString())
                .put("ca", secrets.caPem())
                .put("proxyToken", secrets.proxyToken())
                .put("reconcilerToken", secrets.reconcilerToken());
        try {
            return sealer.seal(MAPPER.writeValueAsBytes(json), associatedData(cluster));
        } catch (IOException e) {
            throw new IllegalStateException("cannot seal cluster secrets", e);
        }
    }

    public BootstrapSecrets open(ClusterId cluster, String sealed) {
        try {
            JsonNode json = MAPPER.readTree(sealer.open(sealed, associatedData(cluster)));
            return BootstrapSecrets.of(json.path("server").asText(), json.path("ca").asText(),
                    json.path("proxyToken").asText(), json.path("reconcilerToken").asText());
        } catch (Sealer.Unreadable | IOException | IllegalArgumentException e) {
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
