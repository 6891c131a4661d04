package dev.klave.reconcile;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.access.Grant;
import dev.klave.access.Authority;
import dev.klave.account.Subject;
import dev.klave.account.SubjectStore;
import dev.klave.cluster.CleanupStatus;
import dev.klave.cluster.ClusterCallFailed;
import dev.klave.cluster.ClusterConnections;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import dev.klave.cluster.KubernetesApi;
import dev.klave.cluster.RbacReconciliation;
import dev.klave.kube.ClusterPath;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Text;
import dev.klave.messages.Untrusted;
import dev.klave.storage.LeaseStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One reconciliation pass of one cluster, and the clean-up when a cluster is deleted. */
public final class Reconciler implements RbacReconciliation {
    private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);
    /** Longer than any pass; a replica that dies mid-pass frees the cluster after this. */
    private static final Duration LEASE = Duration.ofMinutes(2);

    private final ClusterStore clusters;
    private final ClusterConnections connections;
    private final Authority authority;
    private final SubjectStore subjects;
    private final LeaseStore leases;
    private final String replica;
    private final Clock clock;
    private final MeterRegistry registry;

    /**
     * @param authority what each cluster's RBAC must bind (grants in force, roles lent to sessions)
     * @param registry where passes are counted ({@code klave_reconcile_passes_total{cluster,result}})
     */
    public Reconciler(ClusterStore clusters, ClusterConnections connections, Authority authority,
            SubjectStore subjects, LeaseStore leases, String replica, Clock clock, MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.connections = requireNonNull(connections, "connections is null");
        this.authority = requireNonNull(authority, "authority is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.leases = requireNonNull(leases, "leases is null");
        this.replica = requireNonNull(replica, "replica is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Runs one pass now and records its outcome on the cluster.
     *
     * @throws dev.klave.messages.Refusal 409 while another pass of the cluster runs or before its
     *     tokens exist; 502 with the cluster's error when the cluster side fails
     */
    @Override
    public Pass reconcile(ClusterId cluster) {
        try {
            Pass pass = pass(cluster);
            counted(cluster, "success");
            return pass;
        } catch (Skipped skipped) {
            counted(cluster, "skipped");
            throw skipped.refusal;
        } catch (RuntimeException e) {
            // No label for a cluster that is not registered (the API's 404).
            if (!(e instanceof Refusal refused && refused.status() == 404)) {
                counted(cluster, "failure");
            }
            throw e;
        }
    }

    /** A pass not run: another one holds the cluster, or its tokens are not there yet. */
    private static final class Skipped extends RuntimeException {
        private final Refusal refusal;

        Skipped(Refusal refusal) {
            super(refusal.getMessage(), null, false, false);
            this.refusal = refusal;
        }
    }

    /** Clusters are registered ones (the store's, or the API's after its lookup): a bounded label. */
    private void counted(ClusterId cluster, String result) {
        Counter.builder("klave.reconcile.passes")
                .description("RBAC reconciliation passes of a cluster, by result: success, failure (the cluster "
                        + "or the database failed), skipped (another pass held the cluster, or no tokens yet)")
                .tags("cluster", cluster.value(), "result", result)
                .register(registry)
                .increment();
    }

    private Pass pass(ClusterId cluster) {
        String lease = "reconcile/" + cluster.value();
        // A holder per pass, not per replica: two passes of one replica exclude each other too.
        String holder = replica + "/" + UUID.randomUUID();
        if (!leases.tryAcquire(lease, holder, clock.instant(), LEASE)) {
            throw new Skipped(Message.RECONCILE_RUNNING.refusal());
        }
        try {
            KubernetesApi api;
            try {
                api = connections.reconciler(cluster);
            } catch (Refusal refused) {
                throw refused.status() == Message.CLUSTER_WITHOUT_TOKENS.status() ? new Skipped(refused) : refused;
            }
            try {
                Pass pass = apply(api, desired(cluster));
                clusters.recordReconciliation(cluster, clock.instant(), Optional.empty());
                learn(cluster, api);
                LOG.info("reconciled cluster {}: {} created, {} updated, {} deleted", cluster, pass.created(),
                        pass.updated(), pass.deleted());
                return pass;
            } catch (ClusterCallFailed e) {
                clusters.recordReconciliation(cluster, clock.instant(), Optional.of(e.summary()));
                // The summary quotes the cluster's answer.
                LOG.warn("reconciliation of cluster {} failed: {}", cluster, Untrusted.text(e.summary(), 500),
                        e.getCause());
                throw Message.CLUSTER_FAILED.refusal(e.summary());
            }
        } finally {
            leases.release(lease, holder);
        }
    }

    /**
     * The RBAC the active grants of enabled subjects call for, and the roles lent to agents'
     * sessions that an active grant of their person still covers (the session acts with the lent
     * role's group, which needs its binding even when no grant carries that role exactly).
     */
    public DesiredRbac desired(ClusterId cluster) {
        List<Grant> active = authority.bound(cluster);
        Map<String, Subject> byId = new HashMap<>();
        for (Grant grant : active) {
            byId.computeIfAbsent(grant.subjectId().value(), id -> subjects.findById(grant.subjectId()).orElse(null));
        }
        byId.values().removeIf(subject -> subject == null);
        return DesiredRbac.of(active, byId);
    }

    private static Pass apply(KubernetesApi api, DesiredRbac desired) {
        int[] counts = new int[3];
        JsonNode role = api.get(RbacObjects.IMPERSONATION_ROLE_PATH)
                .orElseThrow(() -> ClusterCallFailed.answered(404,
                        Text.IMPERSONATION_ROLE_MISSING.text(RbacObjects.IMPERSONATION_ROLE)));
        if (!RbacObjects.sameRules(role.path("rules"), RbacObjects.impersonationRules(desired))) {
            ObjectNode updated = role.deepCopy();
            updated.set("rules", RbacObjects.impersonationRules(desired));
            api.replace(RbacObjects.IMPERSONATION_ROLE_PATH, updated);
            counts[1]++;
        }
        Map<String, JsonNode> existing = managedBindings(api);
        Map<String, ObjectNode> wanted = desired.bindings().stream()
                .map(RbacObjects::binding)
                .collect(Collectors.toMap(RbacObjects::key, Function.identity()));
        for (Map.Entry<String, JsonNode> current : existing.entrySet()) {
            ObjectNode target = wanted.get(current.getKey());
            if (target == null || !RbacObjects.same(current.getValue(), target)) {
                api.delete(pathOf(current.getValue()));
                counts[2]++;
            }
        }
        for (Map.Entry<String, ObjectNode> target : wanted.entrySet()) {
            JsonNode current = existing.get(target.getKey());
            if (current == null || !RbacObjects.same(current, target.getValue())) {
                api.create(collectionOf(target.getValue()), target.getValue());
                counts[0]++;
            }
        }
        return new Pass(counts[0], counts[1], counts[2]);
    }

    /**
     * Records the API server's version and whether it serves aggregated discovery, so that the
     * cluster's page says before any agent trips on it that the agents' tools need it. A server
     * that cannot be asked leaves what was known; the pass itself succeeded.
     */
    private void learn(ClusterId cluster, KubernetesApi api) {
        try {
            clusters.recordCapabilities(cluster, api.version(), api.servesAggregatedDiscovery());
        } catch (ClusterCallFailed e) {
            LOG.debug("cluster {}: version and discovery not learned: {}", cluster, Untrusted.text(e.summary(), 200));
        }
    }

    /** Every binding labelled as Klave's, cluster-wide and namespaced, by namespace/name. */
    private static Map<String, JsonNode> managedBindings(KubernetesApi api) {
        Map<String, JsonNode> bindings = new HashMap<>();
        for (ClusterPath path : List.of(RbacObjects.CLUSTER_ROLE_BINDINGS, RbacObjects.ROLE_BINDINGS)) {
            for (JsonNode binding : api.list(path, Optional.of(RbacObjects.MANAGED_SELECTOR))) {
                bindings.put(RbacObjects.key(binding), binding);
            }
        }
        return bindings;
    }

    private static ClusterPath collectionOf(JsonNode binding) {
        String namespace = binding.path("metadata").path("namespace").asText("");
        return namespace.isEmpty() ? RbacObjects.CLUSTER_ROLE_BINDINGS : RbacObjects.roleBindingsIn(namespace);
    }

    /** A binding's own path, from the namespace and name the cluster gave it (checked, encoded once). */
    private static ClusterPath pathOf(JsonNode binding) {
        return collectionOf(binding).append(binding.path("metadata").path("name").asText());
    }

    /**
     * Removes everything Klave manages in the cluster before the cluster is deleted. Never throws:
     * the deletion goes on whatever the cluster answers, and the report says what happened.
     */
    @Override
    public Cleanup cleanup(ClusterId cluster) {
        if (clusters.findById(cluster).map(found -> !found.hasTokens()).orElse(true)) {
            return new Cleanup(CleanupStatus.SKIPPED, Optional.of(Text.CLEANUP_WITHOUT_TOKENS.text()), 0, 0, false);
        }
        String lease = "reconcile/" + cluster.value();
        String holder = replica + "/" + UUID.randomUUID();
        if (!leases.tryAcquire(lease, holder, clock.instant(), LEASE)) {
            return new Cleanup(CleanupStatus.SKIPPED, Optional.of(Message.RECONCILE_RUNNING.text()), 0, 0, true);
        }
        int bindings = 0;
        int roles = 0;
        try {
            KubernetesApi api = connections.reconciler(cluster);
            for (JsonNode binding : managedBindings(api).values()) {
                if (api.delete(pathOf(binding))) {
                    bindings++;
                }
            }
            if (api.delete(RbacObjects.IMPERSONATION_ROLE_PATH)) {
                roles++;
            }
            return new Cleanup(CleanupStatus.OK, Optional.empty(), bindings, roles, false);
        } catch (ClusterCallFailed e) {
            return new Cleanup(CleanupStatus.ERROR, Optional.of(e.summary()), bindings, roles, false);
        } catch (dev.klave.messages.Refusal e) {
            return new Cleanup(CleanupStatus.ERROR, Optional.of(e.getMessage()), bindings, roles, false);
        } finally {
            leases.release(lease, holder);
        }
    }
}
