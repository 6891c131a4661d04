package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens a cluster's sealed secrets and hands out API clients for its reconciler token. A cluster
 * whose secrets no longer open (the encryption key changed) fails closed with 503, alone.
 */
public final class ClusterConnections {
    private final ClusterStore clusters;
    private final TokenVault vault;
    private final Map<String, KubernetesApi> clients = new ConcurrentHashMap<>();
    // Keyed by the sealed text itself: new tokens are a new key, and opening (AES-GCM, PEM
    // parsing) happens once per bootstrap instead of once per proxied request.
    private final Map<String, BootstrapSecrets> opened = new ConcurrentHashMap<>();

    public ClusterConnections(ClusterStore clusters, TokenVault vault) {
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.vault = requireNonNull(vault, "vault is null");
    }

    /**
     * @throws dev.klave.messages.Refusal 404 for an unknown cluster, 409 before the bootstrap JSON,
     *     503 when the stored secrets cannot be decrypted
     */
    public BootstrapSecrets secrets(ClusterId id) {
        return secrets(clusters.findById(id).orElseThrow(Message.CLUSTER_NOT_FOUND::refusal));
    }

    /** The secrets of a cluster already read; see {@link #secrets(ClusterId)}. */
    public BootstrapSecrets secrets(Cluster cluster) {
        String sealed = cluster.sealedSecrets().orElseThrow(() -> Message.CLUSTER_WITHOUT_TOKENS.refusal(
                "descarga bootstrap.yaml, aplícalo y pega el JSON que imprime"));
        BootstrapSecrets cached = opened.get(sealed);
        if (cached != null) {
            return cached;
        }
        try {
            BootstrapSecrets secrets = vault.open(cluster.id(), sealed);
            opened.put(sealed, secrets);
            return secrets;
        } catch (TokenVault.SealedSecretsUnreadable e) {
            throw Message.DATABASE_UNAVAILABLE.refusal();
        }
    }

    /** A client acting as the cluster's reconciler service account. */
    public KubernetesApi reconciler(ClusterId id) {
        BootstrapSecrets secrets = secrets(id);
        // Keyed by the token too, so pasting new secrets takes effect at once.
        return clients.computeIfAbsent(id.value() + "\n" + secrets.server() + "\n" + secrets.reconcilerToken(),
                ignored -> new KubernetesApi(secrets.server(), secrets.caCertificates(), secrets.reconcilerToken()));
    }

    /** Forgets the clients of a deleted cluster. */
    public void forget(ClusterId id) {
        clients.keySet().removeIf(key -> key.startsWith(id.value() + "\n"));
        opened.clear();
    }
}
