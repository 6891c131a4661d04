package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Authority;
import dev.klave.access.EligibleGrant;
import dev.klave.access.EligibleGrants;
import dev.klave.access.Grant;
import dev.klave.access.Grants;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Principal;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.cluster.ClusterId;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Access requests, one queue for agents and people. An agent asks (spec 3 "request_access"); a
 * person asks for themselves or activates an eligible grant (issue 41); the requester withdraws or
 * ends what they asked; Klave withdraws what no longer stands (a disabled account, a revoked
 * eligible grant). Deciding them is {@link AccessDecisions}'.
 */
public final class AccessRequests {
    /** How long an access request waits for a decision (spec 3: not shown; ours). */
    public static final Duration LIFETIME = Duration.ofHours(24);
    /** How many of a person's own requests may wait at once. */
    public static final int MAX_WAITING = 10;
    /** The longest list of a person's own requests. */
    public static final int LISTED_OWN = 100;

    private final Transactions transactions;
    private final AccessRequestStore store;
    private final AccessPolicyStore policies;
    private final Grants grants;
    private final Authority authority;
    private final EligibleGrants eligible;
    private final RequestIds ids;
    private final RequestNotices notices;
    private final RequestEvents requestEvents;
    private final Clock clock;

    /** @param notices what is told outside Klave, in the transaction of what it tells */
    public AccessRequests(Transactions transactions, AccessRequestStore store, AccessPolicyStore policies,
            Grants grants, Authority authority, EligibleGrants eligible, SubjectStore subjects, ControlEvents events,
            RequestIds ids, RequestNotices notices, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.store = requireNonNull(store, "store is null");
        this.policies = requireNonNull(policies, "policies is null");
        this.grants = requireNonNull(grants, "grants is null");
        this.authority = requireNonNull(authority, "authority is null");
        this.eligible = requireNonNull(eligible, "eligible is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.notices = requireNonNull(notices, "notices is null");
        this.requestEvents = new RequestEvents(subjects, events);
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Stores an agent's new pending request. The tool checks the ceiling (spec 3 §5.4); the limits of
     * spec 3 §8 are checked here too. A bot's request needs what its cluster's policy says.
     *
     * @throws dev.klave.messages.Refusal {@code agent.access_bad_minutes}, {@code agent.access_reason}
     */
    public AccessRequest request(Actor actor, Optional<SubjectId> decider, ClusterId cluster, Scope scope, Tier role,
            int minutes, String reason) {
        if (minutes < 1 || minutes > AccessRequest.MAX_MINUTES) {
            throw Message.AGENT_ACCESS_BAD_MINUTES.refusal(AccessRequest.MAX_MINUTES);
        }
        if (reason == null || reason.isBlank() || reason.length() > AccessRequest.MAX_REASON) {
            throw Message.AGENT_ACCESS_REASON.refusal(AccessRequest.MAX_REASON);
        }
        if (!scope.wholeCluster() && decider.isEmpty()) {
            // Issue 51 §15: what no approval could grant (a protected namespace, one without the
            // pod security it needs) is refused when asked, before a decider is told of it.
            grants.checkNamespace(cluster, role, scope);
        }
        int approvals = decider.isPresent() ? 1 : policies.find(cluster).approvalsFor(role, scope);
        Instant now = clock.instant();
        AccessRequest request = new AccessRequest(ids.access(), actor, decider, cluster, scope, role, minutes, reason,
                AccessStatus.PENDING, now, now.plus(LIFETIME), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Course.agent(approvals));
        return transactions.inTransaction(() -> {
            store.create(request);
            notices.accessWaiting(request);
            return request;
        });
    }

    /** What a person asks for, as the API received it (issue 41). */
    public record Asked(String clusterId, String tier, String scope, int minutes, String reason) {}

    /**
     * A person asks for access for themselves: a tier (never cluster-admin) on a scope of a cluster,
     * for 15 minutes up to the cluster's maximum, with a reason.
     *
     * @param credentialId the person's {@code klt_} credential when asked from a terminal
     */
    public AccessRequest ask(Principal person, Optional<String> credentialId, Asked asked) {
        ClusterId cluster = grants.cluster(asked.clusterId());
        Tier role = Tier.fromCode(asked.tier() == null ? "" : asked.tier()).orElseThrow(Message.TIER_INVALID::refusal);
        if (!Authority.delegable(role)) {
            throw Message.ACCESS_CLUSTER_ADMIN.refusal();
        }
        Scope scope = new Scope(asked.scope() == null ? "" : asked.scope());
        AccessPolicy policy = policies.find(cluster);
        String reason = checked(asked.minutes(), policy.maxMinutes(), asked.reason());
        if (!scope.wholeCluster()) {
            grants.checkNamespace(cluster, role, scope);
        }
        return create(person, credentialId, cluster, role, scope, asked.minutes(), reason,
                Course.person(policy.approvalsFor(role, scope)));
    }

    /**
     * A person activates one of their eligible grants: at once when it needs no approval (a grant
     * made and the request approved in one transaction), otherwise a request in the queue.
     */
    public AccessRequest activate(String eligibleId, Principal person, Optional<String> credentialId, int minutes,
            String reason) {
        EligibleGrant held = eligible.find(eligibleId).filter(found -> found.subjectId().equals(person.subjectId()))
                .orElseThrow(Message.NOT_FOUND::refusal);
        if (!held.active()) {
            throw Message.ELIGIBLE_REVOKED.refusal();
        }
        String why = checked(minutes, held.maxMinutes(), reason);
        int approvals = policies.find(held.clusterId()).approvalsFor(held.tier(), held.scope());
        // Issue 51 §7: the cluster's policy wins over an eligible grant made "without approval": broad
        // access where the policy wants two approvals goes to the queue like any request.
        if (held.needsApproval() || approvals == 2) {
            return create(person, credentialId, held.clusterId(), held.tier(), held.scope(), minutes, why,
                    Course.eligible(held.id(), approvals));
        }
        Course course = Course.eligible(held.id(), 1);
        refuseHeldOrAsked(person.subjectId(), held.clusterId(), held.tier(), held.scope());
        Instant now = clock.instant();
        Instant until = now.plus(Duration.ofMinutes(minutes));
        AccessRequest request = new AccessRequest(ids.access(), new Actor(person.subjectId(), credentialId,
                Optional.empty()), Optional.empty(), held.clusterId(), held.scope(), held.tier(), minutes, why,
                AccessStatus.PENDING, now, now.plus(LIFETIME), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), course);
        grants.create(grantFor(request, until), person, (Grant created) -> {
            store.create(request);
            record(EventType.ACCESS_REQUEST_CREATE, request, person, Map.of());
            if (!store.approve(request.id(), now, person.login().value(), Optional.empty(), created.id(), until)) {
                throw new IllegalStateException("an activation just stored is pending");
            }
            record(EventType.ACCESS_REQUEST_APPROVE, request, person, Map.of("grant", created.id(), "until",
                    until.toString(), "automatic", true));
        });
        return store.findById(request.id()).orElseThrow();
    }

    private AccessRequest create(Principal person, Optional<String> credentialId, ClusterId cluster, Tier role,
            Scope scope, int minutes, String reason, Course course) {
        Instant now = clock.instant();
        AccessRequest request = new AccessRequest(ids.access(), new Actor(person.subjectId(), credentialId,
                Optional.empty()), Optional.empty(), cluster, scope, role, minutes, reason, AccessStatus.PENDING, now,
                now.plus(LIFETIME), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), course);
        return transactions.inTransaction(() -> {
            refuseHeldOrAsked(person.subjectId(), cluster, role, scope);
            store.create(request);
            record(EventType.ACCESS_REQUEST_CREATE, request, person, Map.of());
            notices.accessWaiting(request);
            return request;
        });
    }

    /** The minutes and reason of a person's request; the reason stripped. */
    private static String checked(int minutes, int most, String reason) {
        if (minutes < AccessRequest.MIN_PERSON_MINUTES || minutes > most) {
            throw Message.ACCESS_MINUTES.refusal(AccessRequest.MIN_PERSON_MINUTES, most);
        }
        String stripped = reason == null ? "" : reason.strip();
        if (stripped.isEmpty() || stripped.length() > AccessRequest.MAX_REASON) {
            throw Message.ACCESS_REASON.refusal(AccessRequest.MAX_REASON);
        }
        return stripped;
    }

    /** Asking for what one holds, or has asked already, or too much at once, is refused. */
    private void refuseHeldOrAsked(SubjectId person, ClusterId cluster, Tier role, Scope scope) {
        Instant now = clock.instant();
        boolean held = authority.inForce(person, Optional.of(cluster)).stream()
                .anyMatch(grant -> grant.covers(role, scope));
        if (held) {
            throw Message.ACCESS_ALREADY_HELD.refusal();
        }
        List<AccessRequest> waiting = store.askedBy(person, LISTED_OWN).stream()
                .filter(request -> request.statusAt(now) == AccessStatus.PENDING).toList();
        if (waiting.stream().anyMatch(request -> request.cluster().equals(cluster) && request.role() == role
                && request.scope().equals(scope))) {
            throw Message.ACCESS_ALREADY_ASKED.refusal();
        }
        if (waiting.size() >= MAX_WAITING) {
            throw Message.ACCESS_TOO_MANY.refusal(MAX_WAITING);
        }
    }

    public Optional<AccessRequest> find(String id) {
        return store.findById(id);
    }

    /** Approved requests of this actor (its subject, and its session when it has one) whose grant runs at {@code now}. */
    public List<AccessRequest> inForce(Actor actor, Instant now) {
        return store.inForce(actor, now);
    }

    /** The request, if {@code caller} may see and decide it; otherwise nothing, as if it did not exist. */
    public Optional<AccessRequest> decidable(String id, Principal caller) {
        return store.findById(id)
                .filter(request -> DecisionRights.allows(request, policies.find(request.cluster()), caller));
    }

    /** The requests {@code caller} decides: pending ones first, then the rest, each newest first. */
    public List<AccessRequest> decidableBy(Principal caller) {
        Instant now = clock.instant();
        Stream<AccessRequest> own = store.forDecider(Optional.of(caller.subjectId()), now, Approvals.LISTED).stream();
        List<AccessRequest> others = caller.admin()
                ? store.forDecider(Optional.empty(), now, Approvals.LISTED)
                : store.onClusters(policies.decidedBy(caller.subjectId()), now, Approvals.LISTED);
        Map<ClusterId, AccessPolicy> read = new HashMap<>();
        Stream<AccessRequest> theirs = others.stream().filter(request -> DecisionRights.allows(request,
                read.computeIfAbsent(request.cluster(), policies::find), caller));
        return Stream.concat(own, theirs)
                .sorted(Comparator.comparing((AccessRequest request) -> request.statusAt(now) != AccessStatus.PENDING)
                        .thenComparing(AccessRequest::createdAt, Comparator.reverseOrder()))
                .limit(Approvals.LISTED).toList();
    }

    /** A person's own requests and activations, newest first. */
    public List<AccessRequest> askedBy(SubjectId person) {
        return store.askedBy(person, LISTED_OWN);
    }

    /** A person's own request, for them; otherwise nothing. */
    public Optional<AccessRequest> own(String id, Principal person) {
        return store.findById(id).filter(request -> request.byPerson()
                && request.actor().subject().equals(person.subjectId()));
    }

    /** A person's recent requests on a cluster: what a decider sees beside one. */
    public List<AccessRequest> recent(SubjectId person, ClusterId cluster, int limit) {
        return store.askedBy(person, cluster, limit);
    }

    /** The request each of these grants came from, by grant id. */
    public Map<String, AccessRequest> madeGrants(List<String> grantIds) {
        Map<String, AccessRequest> made = new LinkedHashMap<>();
        store.madeGrants(grantIds).forEach(request -> made.put(request.grantId().orElseThrow(), request));
        return made;
    }

    /**
     * Revokes an eligible grant and, in the same transaction, withdraws its activations that wait
     * (issue 51 §5): no later approval can make them. Activations already running go on to their end.
     */
    public void revokeEligible(String eligibleId, Principal by) {
        eligible.revoke(eligibleId, by, () -> {
            Instant now = clock.instant();
            for (AccessRequest waiting : store.pendingActivations(eligibleId, now)) {
                withdraw(waiting, now, Text.REQUEST_WITHDRAWN_ELIGIBLE.text());
            }
        });
    }

    /**
     * A subject disabled (issue 51 §5), inside the disable's transaction: what they asked for and
     * waits is withdrawn, and access their requests made ends — revoked, so that enabling them again
     * brings none of it back.
     */
    public void onDisable(SubjectId subject, Instant now) {
        for (AccessRequest waiting : store.pendingOf(subject, now)) {
            withdraw(waiting, now, Text.REQUEST_WITHDRAWN_DISABLED.text());
        }
        for (AccessRequest running : store.grantedRunning(subject, now)) {
            grants.revokeWithoutActor(running.grantId().orElseThrow(), Text.REQUEST_WITHDRAWN_DISABLED.text());
            if (store.end(running.id(), now, Optional.empty())) {
                record(EventType.ACCESS_REQUEST_END, running, Optional.empty(), Map.of("early", true, "revoked",
                        true));
            }
        }
    }

    private void withdraw(AccessRequest request, Instant now, String why) {
        if (store.withdraw(request.id(), now, why)) {
            record(EventType.ACCESS_REQUEST_CANCEL, request, Optional.empty(), Map.of("withdrawn", why));
        }
    }

    /** The requester withdraws a request that waits. */
    public AccessRequest cancel(String id, Principal requester) {
        AccessRequest request = own(id, requester).orElseThrow(Message.NOT_FOUND::refusal);
        Instant now = clock.instant();
        transactions.inTransaction(() -> {
            if (!store.cancel(id, now, requester.login().value())) {
                throw notDecidable(store.findById(id).orElseThrow(), now);
            }
            record(EventType.ACCESS_REQUEST_CANCEL, request, requester, Map.of());
            return null;
        });
        return store.findById(id).orElseThrow();
    }

    /**
     * The requester ends the access early: the grant is revoked and the end recorded in one
     * transaction; the proxy cuts what runs under it as for any revocation.
     */
    public AccessRequest end(String id, Principal requester) {
        AccessRequest request = own(id, requester).orElseThrow(Message.NOT_FOUND::refusal);
        Instant now = clock.instant();
        if (!request.grantRunsAt(now)) {
            throw Message.ACCESS_NOT_RUNNING.refusal();
        }
        grants.revoke(request.grantId().orElseThrow(), requester, () -> {
            if (!store.end(id, now, Optional.of(requester.login().value()))) {
                throw Message.ACCESS_NOT_RUNNING.refusal();
            }
            record(EventType.ACCESS_REQUEST_END, request, requester, Map.of("early", true));
        });
        return store.findById(id).orElseThrow();
    }

    /** The temporary grant an approved request becomes, marked with the request and its reason. */
    static Grants.Request grantFor(AccessRequest request, Instant until) {
        Text note = request.byPerson() ? Text.PERSON_REQUEST_GRANT_NOTE : Text.ACCESS_REQUEST_GRANT_NOTE;
        return new Grants.Request(request.actor().subject().value(), request.cluster().value(),
                request.role().code(), request.scope().value(), Optional.of(until),
                Optional.of(note.text(request.id(), request.reason())));
    }

    private void record(EventType type, AccessRequest request, Principal by, Map<String, ?> more) {
        record(type, request, Optional.of(by), more);
    }

    private void record(EventType type, AccessRequest request, Optional<Principal> by, Map<String, ?> more) {
        requestEvents.record(type, request, by, more);
    }

    static RuntimeException notDecidable(AccessRequest request, Instant now) {
        return request.statusAt(now) == AccessStatus.EXPIRED
                ? Message.REQUEST_EXPIRED.refusal() : Message.REQUEST_NOT_PENDING.refusal();
    }
}
