/**
 * Registered clusters: their ids, the bootstrap that gives Klave two service-account tokens in a
 * cluster, and the one client Klave's control plane uses to talk to a cluster's API server.
 *
 * <p>Owns: cluster ids (DNS labels, the proxy URL segment), the bootstrap manifest, the sealed
 * bootstrap secrets. Trusts: only the CA registered for a cluster, never the system trust store.
 * Refuses: tokens that do not work against the cluster they are pasted for.
 */
package dev.klave.cluster;
