package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grant;
import dev.klave.access.Grants;
import dev.klave.access.LentAccess;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Principal;
import dev.klave.account.SubjectKind;
import dev.klave.account.Subject;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Access requests (spec 3 "request_access"): an agent asks, a person decides. A bot's request,
 * approved by an administrator, becomes a grant of the role on the scope for the minutes asked,
 * through {@link Grants} like any other grant. A delegated agent's, approved by its person, is the
 * session's alone: lent by a grant of the person that covers it ({@link LentAccess}), never a grant
 * the person's own credentials could use. The tool never waits; the decision shows in
 * {@code whoami} through {@link #inForce}.
 */
public final class AccessRequests {
    /** How long an access request waits for a decision (spec 3: not shown; ours). */
    public static final Duration LIFETIME = Duration.ofHours(24);

    private final Transactions transactions;
    private final AccessRequestStore store;
    private final Grants grants;
    private final SubjectStore subjects;
    private final ControlEvents events;
    private final RequestIds ids;
    private final Consumer<ClusterId> changed;
    private final Clock clock;

    /** @param changed told of a cluster whose RBAC an approval changed (a pass of its reconciler) */
    public AccessRequests(Transactions transactions, AccessRequestStore store, Grants grants, SubjectStore subjects,
            ControlEvents events, RequestIds ids, Consumer<ClusterId> changed, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.store = requireNonNull(store, "store is null");
        this.grants = requireNonNull(grants, "grants is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.events = requireNonNull(events, "events is null");
        this.ids = requireNonNull(ids, "ids is null");
        this.changed = requireNonNull(changed, "changed is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Stores a new pending request. The tool checks the ceiling (spec 3 §5.4); the limits of spec 3
     * §8 are checked here too.
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
        Instant now = clock.instant();
        AccessRequest request = new AccessRequest(ids.access(), actor, decider, cluster, scope, role, minutes, reason,
                AccessStatus.PENDING, now, now.plus(LIFETIME), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
        store.create(request);
        return request;
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
        return store.findById(id).filter(request -> DecisionRights.allows(request.decider(), caller));
    }

    /** The requests {@code caller} decides: pending ones first, then the rest, each newest first. */
    public List<AccessRequest> decidableBy(Principal caller) {
        Instant now = clock.instant();
        Stream<AccessRequest> own = store.forDecider(Optional.of(caller.subjectId()), now, Approvals.LISTED).stream();
        Stream<AccessRequest> all = caller.admin()
                ? Stream.concat(own, store.forDecider(Optional.empty(), now, Approvals.LISTED).stream()) : own;
        return all.sorted(Comparator.comparing((AccessRequest request) -> request.statusAt(now) != AccessStatus.PENDING)
                .thenComparing(AccessRequest::createdAt, Comparator.reverseOrder())).limit(Approvals.LISTED).toList();
    }

    /**
     * Approves: the grant (subject, role, scope, expiring {@code minutes} from now) and the request's
     * new state are one transaction — {@link Grants#create(Grants.Request, Principal,
     * java.util.function.Consumer)} runs the conditional update inside its own — so a request
     * decided meanwhile on another replica leaves no grant behind.
     */
    public AccessRequest approve(String id, Principal by) {
        AccessRequest request = decidable(id, by).orElseThrow(Message.NOT_FOUND::refusal);
        Instant now = clock.instant();
        if (request.statusAt(now) != AccessStatus.PENDING) {
            // Before the grant's checks, which may ask the cluster about the namespace.
            throw notDecidable(request, now);
        }
        Instant until = now.plus(Duration.ofMinutes(request.minutes()));
        if (request.actor().sessionId().isPresent()) {
            return lend(request, by, now, until);
        }
        // A bot's (spec 3 "request_access"): administrators decide, and the grant is temporary.
        Grants.Request grant = new Grants.Request(request.actor().subject().value(), request.cluster().value(),
                request.role().code(), request.scope().value(), Optional.of(until),
                Optional.of(Text.ACCESS_REQUEST_GRANT_NOTE.text(id, request.reason())));
        grants.create(grant, by, (Grant created) -> {
            if (!store.approve(id, now, by.login().value(), created.id(), until)) {
                throw notDecidable(store.findById(id).orElseThrow(), now);
            }
            record(EventType.AGENT_ACCESS_APPROVED, request, by, Map.of("grant", created.id()));
        });
        return store.findById(id).orElseThrow();
    }

    /**
     * A delegated agent's request approved: the session's, never a grant of the person. The person
     * must hold, now, a grant that covers the role on the scope; the session may then use that role
     * for the minutes asked, through that grant and never beyond its end (the gateway checks again
     * at every call that a grant still covers it). No grant is made, so the person's own
     * credentials gain nothing.
     *
     * @throws dev.klave.messages.Refusal 409 {@code REQUEST_NOT_HELD} when no grant covers it any more
     */
    private AccessRequest lend(AccessRequest request, Principal by, Instant now, Instant until) {
        LentAccess.Lent asked = new LentAccess.Lent(request.actor().subject(), request.cluster(), request.role(),
                request.scope(), until);
        List<Grant> active = grants.list(Optional.of(request.actor().subject()), Optional.of(request.cluster()), false)
                .stream().filter(grant -> grant.activeAt(now)).toList();
        Grant lent = asked.through(active).orElseThrow(Message.REQUEST_NOT_HELD::refusal);
        Instant ends = lent.expiresAt().orElse(until);
        transactions.inTransaction(() -> {
            if (!store.approve(request.id(), now, by.login().value(), lent.id(), ends)) {
                throw notDecidable(store.findById(request.id()).orElseThrow(), now);
            }
            record(EventType.AGENT_ACCESS_APPROVED, request, by, Map.of("grant", lent.id(), "until",
                    ends.toString()));
            return null;
        });
        // The lent role's group is bound in the cluster when no grant carries it exactly.
        changed.accept(request.cluster());
        return store.findById(request.id()).orElseThrow();
    }

    public AccessRequest deny(String id, Principal by) {
        AccessRequest request = decidable(id, by).orElseThrow(Message.NOT_FOUND::refusal);
        Instant now = clock.instant();
        transactions.inTransaction(() -> {
            if (!store.deny(id, now, by.login().value())) {
                throw notDecidable(store.findById(id).orElseThrow(), now);
            }
            record(EventType.AGENT_ACCESS_DENIED, request, by, Map.of());
            return null;
        });
        return store.findById(id).orElseThrow();
    }

    private void record(EventType type, AccessRequest request, Principal by, Map<String, String> more) {
        Subject asking = subjects.findById(request.actor().subject()).orElseThrow();
        events.event(type).actor(by).target(asking)
                .details(Map.of("request", request.id(), "cluster", request.cluster().value(), "tier",
                        request.role().code(), "scope", request.scope().value(), "minutes", request.minutes()))
                .details(more)
                .detail("requester", asking.kind() == SubjectKind.BOT ? "bot" : "person")
                .record();
    }

    private static RuntimeException notDecidable(AccessRequest request, Instant now) {
        return request.statusAt(now) == AccessStatus.EXPIRED
                ? Message.REQUEST_EXPIRED.refusal() : Message.REQUEST_NOT_PENDING.refusal();
    }
}
