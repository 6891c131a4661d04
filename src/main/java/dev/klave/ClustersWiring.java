package dev.klave;

import dev.klave.access.GrantStore;
import dev.klave.access.Grants;
import dev.klave.cluster.ClusterConnections;
import dev.klave.cluster.ClusterEndpoints;
import dev.klave.cluster.ClusterStore;
import dev.klave.cluster.Clusters;
import dev.klave.cluster.Namespaces;
import dev.klave.cluster.TokenVault;
import dev.klave.config.Settings;
import dev.klave.crypto.KeyPurpose;
import dev.klave.reconcile.Reconciler;
import dev.klave.reconcile.Reconciliations;
import dev.klave.store.Database;
import dev.klave.store.JdbiAccessRequestStore;
import dev.klave.store.JdbiClusterStore;
import dev.klave.store.JdbiGrantStore;
import dev.klave.store.JdbiLeaseStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.security.SecureRandom;
import java.time.Clock;

/**
 * Clusters, grants and the reconciler that keeps each cluster's RBAC in line with the grants. One
 * grant store for all of them. {@link #start()} starts the reconciliations' thread; nothing
 * starts before.
 */
final class ClustersWiring implements AutoCloseable {
    final ClusterStore clusterStore;
    final GrantStore grantStore;
    final TokenVault vault;
    final ClusterConnections connections;
    final Reconciler reconciler;
    final Reconciliations reconciliations;
    final Namespaces namespaces;
    final Clusters clusters;
    final Grants grants;

    /** @param replica this replica's name in the leases it takes */
    ClustersWiring(Database database, Settings settings, AccountsWiring accounts, SecureRandom random, String replica,
            MeterRegistry registry) {
        Clock clock = accounts.clock;
        clusterStore = new JdbiClusterStore(database);
        grantStore = new JdbiGrantStore(database);
        vault = new TokenVault(accounts.keys.derive(KeyPurpose.CLUSTER_TOKENS), random);
        connections = new ClusterConnections(clusterStore, vault, new ClusterEndpoints());
        reconciler = new Reconciler(clusterStore, connections, grantStore, accounts.subjects,
                new JdbiLeaseStore(database), replica, clock, registry, new JdbiAccessRequestStore(database));
        reconciliations = new Reconciliations(reconciler, clusterStore, grantStore, connections.endpoints(), clock);
        namespaces = new Namespaces(connections);
        clusters = new Clusters(database, clusterStore, vault, accounts.events, reconciliations::request, clock);
        grants = new Grants(database, grantStore, accounts.subjects, clusterStore, namespaces, accounts.events,
                settings.requirePodSecurity(), reconciliations::request, clock);
    }

    void start() {
        reconciliations.start();
    }

    @Override
    public void close() {
        reconciliations.close();
    }
}
