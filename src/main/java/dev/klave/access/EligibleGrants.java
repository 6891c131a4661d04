package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.cluster.ClusterId;
import dev.klave.messages.Message;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Eligible grants (issue 41): an administrator gives a person access they activate when they need
 * it. The same rules as a grant — the tier, the scope, the namespace — checked when it is given,
 * and again, by {@link Grants}, when an activation becomes a grant.
 */
public final class EligibleGrants {
    /** The longest listing. */
    public static final int LISTED = 200;

    private final Transactions transactions;
    private final EligibleGrantStore store;
    private final Grants grants;
    private final SubjectStore subjects;
    private final ControlEvents events;
    private final Clock clock;

    public EligibleGrants(Transactions transactions, EligibleGrantStore store, Grants grants, SubjectStore subjects,
            ControlEvents events, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.store = requireNonNull(store, "store is null");
        this.grants = requireNonNull(grants, "grants is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** What a new eligible grant asks for, as the API received it. */
    public record Request(String subjectId, String clusterId, String tier, String scope, int maxMinutes,
            boolean needsApproval, Optional<String> note) {}

    /**
     * @throws dev.klave.messages.Refusal 404 for an unknown person or cluster, 400 for a bot, a
     *     cluster-admin tier, a bad scope or maximum, 409 when the same one is in force
     */
    public EligibleGrant create(Request request, Principal actor) {
        Subject subject = grants.subject(request.subjectId());
        if (subject.kind() != SubjectKind.PERSON) {
            throw Message.ELIGIBLE_FOR_PEOPLE.refusal();
        }
        ClusterId cluster = grants.cluster(request.clusterId());
        Tier tier = Tier.fromCode(request.tier() == null ? "" : request.tier())
                .orElseThrow(Message.TIER_INVALID::refusal);
        if (!Authority.delegable(tier)) {
            throw Message.ACCESS_CLUSTER_ADMIN.refusal();
        }
        Scope scope = new Scope(request.scope() == null ? "" : request.scope());
        if (request.maxMinutes() < EligibleGrant.MIN_MINUTES || request.maxMinutes() > EligibleGrant.MAX_MINUTES) {
            throw Message.ELIGIBLE_MAX_MINUTES.refusal();
        }
        if (!scope.wholeCluster()) {
            grants.checkNamespace(cluster, tier, scope);
        }
        Instant now = clock.instant();
        EligibleGrant eligible = new EligibleGrant(UUID.randomUUID().toString(), subject.id(), cluster, tier, scope,
                request.maxMinutes(), request.needsApproval(), request.note().orElse("").strip(), now,
                Optional.of(actor.subjectId().value()), Optional.empty(), Optional.empty());
        return transactions.inTransaction(() -> {
            boolean duplicate = store.find(Optional.of(subject.id()), Optional.of(cluster), false, LISTED).stream()
                    .anyMatch(existing -> existing.tier() == tier && existing.scope().equals(scope));
            if (duplicate) {
                throw Message.ELIGIBLE_EXISTS.refusal();
            }
            store.create(eligible);
            events.event(EventType.ELIGIBLE_GRANT_CREATE).actor(actor).target(subject)
                    .details(Map.of("eligible", eligible.id(), "cluster", cluster.value(), "tier", tier.code(),
                            "scope", scope.value(), "max_minutes", eligible.maxMinutes(),
                            "needs_approval", eligible.needsApproval()))
                    .record();
            return eligible;
        });
    }

    public Optional<EligibleGrant> find(String id) {
        return store.findById(id);
    }

    public List<EligibleGrant> list(Optional<SubjectId> subject, Optional<ClusterId> cluster, boolean includeRevoked) {
        return store.find(subject, cluster, includeRevoked, LISTED);
    }

    /** Revokes; revoking twice is harmless. Access already activated runs to its end (revoke that grant to end it). */
    public void revoke(String id, Principal actor) {
        revoke(id, actor, () -> { });
    }

    /** As {@link #revoke(String, Principal)}, with {@code alongside} run in the revocation's transaction. */
    public void revoke(String id, Principal actor, Runnable alongside) {
        EligibleGrant eligible = store.findById(id).orElseThrow(Message.NOT_FOUND::refusal);
        transactions.inTransaction(() -> {
            if (store.revoke(id, clock.instant(), actor.subjectId().value())) {
                Subject subject = subjects.findById(eligible.subjectId()).orElseThrow();
                events.event(EventType.ELIGIBLE_GRANT_REVOKE).actor(actor).target(subject)
                        .details(Map.of("eligible", id, "cluster", eligible.clusterId().value(), "tier",
                                eligible.tier().code(), "scope", eligible.scope().value()))
                        .record();
            }
            alongside.run();
            return null;
        });
    }
}
