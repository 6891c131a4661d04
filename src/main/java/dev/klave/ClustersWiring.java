package dev.klave;

import dev.klave.access.Authority;
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
 * grant store for all of them, read by the access {@link Authority} and written by {@link Grants};
 * one store of access requests, whose approved requests lend the roles the authority counts (the
 * agents' area asks and decides them in it). {@link #start()} starts the reconciliations' thread;
 * {@link #close()} stops it. Nothing starts before.
 */
final class ClustersWiring implements AutoCloseable {
    final ClusterStore clusterStore;
    /** Who may do what: the one authority every decider asks (issue 52). */
    final Authority authority;
    final TokenVault vault;
    final ClusterConnections connections;
    final Reconciler reconciler;
    final Reconciliations reconciliations;
    final Namespaces namespaces;
    final Clusters clusters;
    final Grants grants;
    /** Access requests (issue 41, spec 3 "request_access"): asked, decided and lent from one store. */
    final JdbiAccessRequestStore accessRequests;

    /** @param replica this replica's name in the leases it takes */
    ClustersWiring(Database database, Settings settings, AccountsWiring accounts, SecureRandom random, String replica,
            MeterRegistry registry) {
        Clock clock = accounts.clock;
        clusterStore = new JdbiClusterStore(database);
        JdbiGrantStore grantStore = new JdbiGrantStore(database);
        vault = new TokenVault(accounts.keys.derive(KeyPurpose.CLUSTER_TOKENS), random);
        connections = new ClusterConnections(clusterStore, vault, new ClusterEndpoints());
        accessRequests = new JdbiAccessRequestStore(database);
        authority = new Authority(grantStore, accessRequests, clock);
        reconciler = new Reconciler(clusterStore, connections, authority, accounts.subjects,
                new JdbiLeaseStore(database), replica, clock, registry);
        reconciliations = new Reconciliations(reconciler, clusterStore, authority, connections.endpoints(), clock);
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
