package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens a cluster's sealed secrets and hands out API clients for its reconciler token (kept by
 * {@link ClusterEndpoints}, with every other client of the cluster). A cluster whose secrets no
 * longer open (the encryption key changed) fails closed with 503, alone.
 */
public final class ClusterConnections {
    private final ClusterStore clusters;
    private final TokenVault vault;
    private final ClusterEndpoints endpoints;
    /** The reconciler's client of a cluster, for the secrets it was built from. */
    private static final ClusterEndpoints.Kind<KubernetesApi> RECONCILER = new ClusterEndpoints.Kind<>("reconciler",
            secrets -> new KubernetesApi(secrets.server(), secrets.caCertificates(), secrets.reconcilerToken()),
            api -> { });
    /**
     * The opened secrets of each cluster, with the sealed text they came from: opening (AES-GCM,
     * PEM parsing) happens once per bootstrap instead of once per proxied request, and new tokens
     * replace the old entry rather than sit beside it.
     */
    private final Map<ClusterId, Opened> opened = new ConcurrentHashMap<>();

    private record Opened(String sealed, BootstrapSecrets secrets) {}

    public ClusterConnections(ClusterStore clusters, TokenVault vault, ClusterEndpoints endpoints) {
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.vault = requireNonNull(vault, "vault is null");
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
    }

    /** Every client kept for the clusters' API servers. */
    public ClusterEndpoints endpoints() {
        return endpoints;
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
        // Built again when the secrets are new ones, so pasting new secrets takes effect at once.
        return endpoints.client(RECONCILER, id, "", secrets(id));
    }

    /** Forgets the secrets and every client of a deleted cluster. */
    public void forget(ClusterId id) {
        opened.remove(id);
        endpoints.forget(id);
    }
}
