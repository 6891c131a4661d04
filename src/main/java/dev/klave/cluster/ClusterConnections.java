package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens a cluster's sealed secrets and hands out API clients for its reconciler token. A cluster
 * whose secrets no longer open (the encryption key changed) fails closed with 503, alone.
 */
public final class ClusterConnections {
    private final ClusterStore clusters;
    private final TokenVault vault;
    /** The reconciler's client of each cluster, for the secrets it was built from. */
    private final Map<ClusterId, Reconciler> clients = new ConcurrentHashMap<>();
    /**
     * The opened secrets of each cluster, with the sealed text they came from: opening (AES-GCM,
     * PEM parsing) happens once per bootstrap instead of once per proxied request, and new tokens
     * replace the old entry rather than sit beside it.
     */
    private final Map<ClusterId, Opened> opened = new ConcurrentHashMap<>();

    private record Opened(String sealed, BootstrapSecrets secrets) {}

    private record Reconciler(BootstrapSecrets secrets, KubernetesApi api) {}

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
                Text.CLUSTER_BOOTSTRAP_HINT.text()));
        Opened cached = opened.get(cluster.id());
        if (cached != null && cached.sealed().equals(sealed)) {
            return cached.secrets();
        }
        try {
            BootstrapSecrets secrets = vault.open(cluster.id(), sealed);
            opened.put(cluster.id(), new Opened(sealed, secrets));
            return secrets;
        } catch (TokenVault.SealedSecretsUnreadable e) {
            throw Message.DATABASE_UNAVAILABLE.refusal();
        }
    }

    /** A client acting as the cluster's reconciler service account. */
    public KubernetesApi reconciler(ClusterId id) {
        BootstrapSecrets secrets = secrets(id);
        // Built again when the secrets are new ones, so pasting new secrets takes effect at once.
        return clients.compute(id, (ignored, kept) -> kept != null && kept.secrets() == secrets ? kept
                : new Reconciler(secrets, new KubernetesApi(secrets.server(), secrets.caCertificates(),
                        secrets.reconcilerToken()))).api();
    }

    /** Forgets the secrets and client of a deleted cluster. */
    public void forget(ClusterId id) {
        clients.remove(id);
        opened.remove(id);
    }
}
