package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import dev.klave.cluster.Namespaces;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import dev.klave.storage.Keyset;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/** Creating, listing and revoking grants (spec 1 §4 "Grants"), with every rule of the catalogue. */
public final class Grants {
    /** Namespaces no tier may be granted on: the system's and Klave's own. */
    public static final Set<String> PROTECTED_NAMESPACES = Set.of("kube-system", "kube-public", "kube-node-lease",
            "klave-system");
    private static final Set<String> ENFORCING = Set.of("baseline", "restricted");

    private final Transactions transactions;
    private final GrantStore grants;
    private final SubjectStore subjects;
    private final ClusterStore clusters;
    private final Namespaces namespaces;
    private final ControlEvents events;
    private final boolean podSecurityRequired;
    private final Consumer<ClusterId> changed;
    private final Clock clock;

    public Grants(Transactions transactions, GrantStore grants, SubjectStore subjects, ClusterStore clusters,
            Namespaces namespaces, ControlEvents events, boolean podSecurityRequired, Consumer<ClusterId> changed,
            Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.grants = requireNonNull(grants, "grants is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.namespaces = requireNonNull(namespaces, "namespaces is null");
        this.events = requireNonNull(events, "events is null");
        this.podSecurityRequired = podSecurityRequired;
        this.changed = requireNonNull(changed, "changed is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public boolean podSecurityRequired() {
        return podSecurityRequired;
    }

    /** What a new grant asks for, as the API received it. */
    public record Request(String subjectId, String clusterId, String tier, String scope, Optional<Instant> expiresAt,
            Optional<String> note) {}

    public Grant create(Request request, Principal actor) {
        return create(request, actor, grant -> {});
    }

    /**
     * As {@link #create(Request, Principal)}, with {@code alongside} run in the grant's own
     * transaction once the grant is stored: for a change that must be made with the grant or not at
     * all (an agent's approved access request, spec 3). A refusal it throws undoes the grant. The
     * cluster is asked about the namespace before the transaction, never inside it.
     */
    public Grant create(Request request, Principal actor, Consumer<Grant> alongside) {
        Subject subject = subject(request.subjectId());
        ClusterId clusterId = cluster(request.clusterId());
        Tier tier = Tier.fromCode(request.tier() == null ? "" : request.tier())
                .orElseThrow(() -> Message.TIER_INVALID.refusal());
        Scope scope = new Scope(request.scope() == null ? "" : request.scope());
        if (!tier.onNamespace() && !scope.wholeCluster()) {
            throw Message.SCOPE_CLUSTER_ADMIN_WHOLE.refusal();
        }
        Instant now = clock.instant();
        if (request.expiresAt().isPresent() && !request.expiresAt().get().isAfter(now)) {
            throw Message.EXPIRY_PAST.refusal();
        }
        if (!scope.wholeCluster()) {
            checkNamespace(clusterId, tier, scope);
        }
        Grant grant = new Grant(UUID.randomUUID().toString(), subject.id(), clusterId, tier, scope,
                request.expiresAt(), request.note().orElse("").strip(), now,
                Optional.of(actor.subjectId().value()), Optional.empty(), Optional.empty());
        Grant created = transactions.inTransaction(() -> {
            // The duplicate check and the insert are one transaction (SQLite serialises writers).
            boolean duplicate = grants.find(Optional.of(subject.id()), Optional.of(clusterId), false).stream()
                    .anyMatch(existing -> existing.activeAt(now) && existing.tier() == tier
                            && existing.scope().equals(scope));
            if (duplicate) {
                throw Message.GRANT_EXISTS.refusal();
            }
            grants.create(grant);
            events.event(EventType.GRANT_CREATE).actor(actor).target(subject)
                    .details(Map.of("grant", grant.id(), "cluster", clusterId.value(), "tier", tier.code(),
                            "scope", scope.value()))
                    .record();
            alongside.accept(grant);
            return grant;
        });
        changed.accept(clusterId);
        return created;
    }

    /**
     * The rules of a namespace scope — not a protected namespace, and pod-security enforced there
     * for a writing tier when required — for an eligible grant as for a grant (issue 41).
     */
    public void checkNamespace(ClusterId cluster, Tier tier, Scope scope) {
        if (PROTECTED_NAMESPACES.contains(scope.value())) {
            throw Message.NAMESPACE_PROTECTED.refusal(scope.value());
        }
        if (!tier.writes() || !podSecurityRequired) {
            return;
        }
        Namespaces.Namespace namespace = namespaces.find(cluster, scope.value())
                .orElseThrow(() -> Message.SCOPE_NAMESPACE_UNKNOWN.refusal(scope));
        String level = namespace.psaEnforce().orElse(Text.POD_SECURITY_NONE.text());
        if (!ENFORCING.contains(level)) {
            throw Message.POD_SECURITY_REQUIRED.refusal(scope.value(), level);
        }
    }

    public List<Grant> list(Optional<SubjectId> subject, Optional<ClusterId> cluster, boolean includeRevoked) {
        return grants.find(subject, cluster, includeRevoked);
    }

    /** Up to {@code limit} grants matching {@code filter}, newest first, after {@code after}, with their holders. */
    public List<ListedGrant> list(GrantFilter filter, Optional<Keyset> after, int limit) {
        return grants.list(filter, after, limit);
    }

    /** Revokes; revoking twice is harmless. */
    public void revoke(String id, Principal actor) {
        revoke(id, actor, () -> {});
    }

    /**
     * As {@link #revoke(String, Principal)}, with {@code alongside} run in the revocation's
     * transaction: a requested access ended early by its requester (issue 41) is recorded with the
     * revocation or not at all.
     */
    public void revoke(String id, Principal actor, Runnable alongside) {
        Grant grant = grants.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        transactions.inTransaction(() -> {
            if (grants.revoke(id, clock.instant(), actor.subjectId().value())) {
                Subject subject = subjects.findById(grant.subjectId()).orElseThrow();
                // The tier and scope too: the event must say which permission went, not only where.
                events.event(EventType.GRANT_REVOKE).actor(actor).target(subject)
                        .details(Map.of("grant", id, "cluster", grant.clusterId().value(), "tier", grant.tier().code(),
                                "scope", grant.scope().value())).record();
            }
            alongside.run();
            return null;
        });
        changed.accept(grant.clusterId());
    }


    /**
     * Revokes a grant where no person acts (issue 51: access a disabled account had asked for), in
     * the caller's transaction; its event says why. The cluster is told to drop its binding.
     */
    public void revokeWithoutActor(String id, String why) {
        Grant grant = grants.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        transactions.inTransaction(() -> {
            if (grants.revoke(id, clock.instant(), KLAVE)) {
                Subject subject = subjects.findById(grant.subjectId()).orElseThrow();
                events.event(EventType.GRANT_REVOKE).target(subject)
                        .details(Map.of("grant", id, "cluster", grant.clusterId().value(), "tier", grant.tier().code(),
                                "scope", grant.scope().value(), "reason", why)).record();
            }
            return null;
        });
        changed.accept(grant.clusterId());
    }

    /** Who revoked a grant when no person did. */
    public static final String KLAVE = "klave";

    /** The subject an API request names by id; 404 (user) when there is none. */
    public Subject subject(String id) {
        try {
            return subjects.findById(new SubjectId(id == null ? "" : id)).orElseThrow(Message.USER_NOT_FOUND::refusal);
        } catch (IllegalArgumentException e) {
            throw Message.USER_NOT_FOUND.refusal();
        }
    }

    /** The cluster an API request names by id; 404 (cluster) when there is none. */
    public ClusterId cluster(String id) {
        return clusters.existing(id);
    }
}
