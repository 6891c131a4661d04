package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import dev.klave.kube.ClusterPath;
import dev.klave.kube.Query;
import dev.klave.account.Principal;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.messages.Message;
import dev.klave.storage.AlreadyExistsException;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** Registering clusters and giving them their bootstrap secrets (spec 1 §4 "Clusters"). */
public final class Clusters {
    private final Transactions transactions;
    private final ClusterStore clusters;
    private final TokenVault vault;
    private final ControlEvents events;
    private final Consumer<ClusterId> tokensSet;
    private final Clock clock;

    public Clusters(Transactions transactions, ClusterStore clusters, TokenVault vault, ControlEvents events,
            Consumer<ClusterId> tokensSet, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.vault = requireNonNull(vault, "vault is null");
        this.events = requireNonNull(events, "events is null");
        this.tokensSet = requireNonNull(tokensSet, "tokensSet is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** @throws dev.klave.messages.Refusal 400 for a bad id or name, 409 when the id is taken */
    public Cluster register(String id, String name, Principal actor) {
        ClusterId clusterId = new ClusterId(id == null ? "" : id);
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.isEmpty() || trimmed.length() > 200) {
            throw Message.CLUSTER_NAME_INVALID.refusal();
        }
        Cluster cluster = new Cluster(clusterId, trimmed, clock.instant(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
        try {
            return transactions.inTransaction(() -> {
                if (clusters.findById(clusterId).isPresent()) {
                    throw Message.CLUSTER_TAKEN.refusal();
                }
                clusters.create(cluster);
                events.event(EventType.CLUSTER_CREATE).actor(actor).details(Map.of("cluster", clusterId.value()))
                        .record();
                return cluster;
            });
        } catch (AlreadyExistsException e) {
            throw Message.CLUSTER_TAKEN.refusal();
        }
    }

    public List<Cluster> list() {
        return clusters.list();
    }

    /** What the last reconciliation pass learned of the cluster's API server. */
    public ClusterCapabilities capabilities(ClusterId id) {
        return clusters.capabilities(id);
    }

    public Cluster get(String id) {
        if (!ClusterId.isValid(id)) {
            throw Message.CLUSTER_NOT_FOUND.refusal();
        }
        return clusters.findById(new ClusterId(id)).orElseThrow(Message.CLUSTER_NOT_FOUND::refusal);
    }

    /**
     * Checks the bootstrap JSON against the cluster itself — each token must be accepted — then
     * stores it sealed and asks for the first reconciliation.
     *
     * @throws dev.klave.messages.Refusal 400 for bad JSON or a rejected token, 502 when the
     *     cluster cannot be reached (with the reason)
     */
    public Cluster setTokens(String id, BootstrapSecrets secrets, Principal actor) {
        Cluster cluster = get(id);
        check(secrets.proxyToken(), "proxyToken", ClusterPath.of("api"), Query.NONE, secrets);
        check(secrets.reconcilerToken(), "reconcilerToken", ClusterPath.of("api", "v1", "namespaces"),
                Query.NONE.with("limit", "1"), secrets);
        Instant now = clock.instant();
        transactions.inTransaction(() -> {
            clusters.setSecrets(cluster.id(), vault.seal(cluster.id(), secrets), now);
            events.event(EventType.CLUSTER_TOKENS).actor(actor).details(Map.of("cluster", cluster.id().value(),
                    "server", secrets.server().toString())).record();
            return null;
        });
        tokensSet.accept(cluster.id());
        return clusters.findById(cluster.id()).orElseThrow();
    }

    private static void check(String token, String field, ClusterPath path, Query query, BootstrapSecrets secrets) {
        KubernetesApi api = new KubernetesApi(secrets.server(), secrets.caCertificates(), token);
        try {
            api.get(path, query);
        } catch (ClusterCallFailed e) {
            if (e.status() == 401 || e.status() == 403) {
                throw Message.BOOTSTRAP_TOKEN_REJECTED.refusal(field, e.status());
            }
            throw Message.CLUSTER_FAILED.refusal(e.summary());
        }
    }

    /** Deletes the cluster record (its grants go with it); the caller cleans the cluster side first. */
    public void delete(ClusterId id, Principal actor, Map<String, String> report) {
        transactions.inTransaction(() -> {
            if (!clusters.delete(id)) {
                throw Message.CLUSTER_NOT_FOUND.refusal();
            }
            events.event(EventType.CLUSTER_DELETE).actor(actor).details(report).record();
            return null;
        });
    }
}
