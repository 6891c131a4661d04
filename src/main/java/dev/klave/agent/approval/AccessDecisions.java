package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Authority;
import dev.klave.access.EligibleGrant;
import dev.klave.access.EligibleGrants;
import dev.klave.access.Grant;
import dev.klave.access.Grants;
import dev.klave.access.LentAccess;
import dev.klave.account.Login;
import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.cluster.ClusterId;
import dev.klave.messages.Message;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Deciding access requests (issues 41, 51): approving and denying, each what is still allowed when
 * it is decided. A bot's or a person's own request, approved by whoever decides its cluster
 * ({@link AccessPolicy}: administrators and the people named, never the requester, two of them
 * for broad access when the cluster says so), becomes a grant that starts now and ends by itself.
 * A delegated agent's, approved by its person, is the session's alone: lent by a grant of the
 * person that covers it ({@link LentAccess}), never a grant the person's own credentials could use.
 */
public final class AccessDecisions {
    private final AccessRequests requests;
    private final Transactions transactions;
    private final AccessRequestStore store;
    private final AccessPolicyStore policies;
    private final Grants grants;
    private final Authority authority;
    private final EligibleGrants eligible;
    private final SubjectStore subjects;
    private final Consumer<ClusterId> changed;
    private final RequestNotices notices;
    private final RequestEvents events;
    private final Clock clock;

    /**
     * @param changed told of a cluster whose RBAC a decision changed (a pass of its reconciler)
     * @param notices what is told outside Klave, in the transaction of what it tells
     */
    public AccessDecisions(AccessRequests requests, Transactions transactions, AccessRequestStore store,
            AccessPolicyStore policies, Grants grants, Authority authority, EligibleGrants eligible,
            SubjectStore subjects, ControlEvents events, Consumer<ClusterId> changed, RequestNotices notices,
            Clock clock) {
        this.requests = requireNonNull(requests, "requests is null");
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.store = requireNonNull(store, "store is null");
        this.policies = requireNonNull(policies, "policies is null");
        this.grants = requireNonNull(grants, "grants is null");
        this.authority = requireNonNull(authority, "authority is null");
        this.eligible = requireNonNull(eligible, "eligible is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.changed = requireNonNull(changed, "changed is null");
        this.notices = requireNonNull(notices, "notices is null");
        this.events = new RequestEvents(subjects, events);
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** As {@link #approve(String, Principal, Optional)} without a comment (spec 3's decision API). */
    public AccessRequest approve(String id, Principal by) {
        return approve(id, by, Optional.empty());
    }

    /**
     * Approves what is still allowed (issue 51 §5): in one transaction, the request's row held (a
     * decision elsewhere waits for this one), everything the decision depends on is read as it is
     * now — the requester still enabled, the eligible grant it activates still in force, the
     * cluster's policy (its maximum, and whether broad access needs two approvals), and whether a
     * first approval still counts (its author enabled and still a decider). A request that needs two
     * approvals takes this one as its first and waits for a second from someone else; otherwise the
     * grant (subject, role, scope, expiring {@code minutes} from now) and the request's new state
     * are made together.
     */
    public AccessRequest approve(String id, Principal by, Optional<String> comment) {
        AccessRequest seen = requests.decidable(id, by).orElseThrow(Message.NOT_FOUND::refusal);
        Optional<String> said = comment(comment);
        Instant now = clock.instant();
        if (seen.statusAt(now) != AccessStatus.PENDING) {
            // Before the grant's checks, which may ask the cluster about the namespace.
            throw AccessRequests.notDecidable(seen, now);
        }
        Instant until = now.plus(Duration.ofMinutes(seen.minutes()));
        if (seen.actor().sessionId().isPresent()) {
            return lend(seen, by, said, now, until);
        }
        AccessRequest decided = transactions.inTransaction(() -> {
            AccessRequest request = store.lock(id).orElseThrow(Message.NOT_FOUND::refusal);
            if (request.statusAt(now) != AccessStatus.PENDING) {
                throw AccessRequests.notDecidable(request, now);
            }
            AccessPolicy policy = policies.find(request.cluster());
            if (!DecisionRights.allows(request, policy, by)) {
                throw Message.NOT_FOUND.refusal();
            }
            Standing standing = standing(request, policy);
            Optional<Course.Decision> first = request.course().first().filter(stillCounts(request, policy));
            if (first.filter(decision -> decision.by().equals(by.login().value())).isPresent()) {
                throw Message.ACCESS_SECOND_APPROVER.refusal();
            }
            if (first.isEmpty() && standing.approvals() == 2) {
                if (!store.recordFirst(id, now, by.login().value(), said)) {
                    throw AccessRequests.notDecidable(store.findById(id).orElseThrow(), now);
                }
                Map<String, Object> details = new LinkedHashMap<>();
                request.course().first().filter(stale -> first.isEmpty())
                        .ifPresent(stale -> details.put("replaced_first", stale.by()));
                record(EventType.ACCESS_REQUEST_FIRST_APPROVAL, request, by, withComment(details, said));
                return store.findById(id).orElseThrow();
            }
            grants.create(AccessRequests.grantFor(request, until), by, (Grant created) -> {
                if (!store.approve(id, now, by.login().value(), said, created.id(), until)) {
                    throw AccessRequests.notDecidable(store.findById(id).orElseThrow(), now);
                }
                record(request.byPerson() ? EventType.ACCESS_REQUEST_APPROVE : EventType.AGENT_ACCESS_APPROVED,
                        request, by, withComment(Map.of("grant", created.id(), "until", until.toString()), said));
                notices.decided(store.findById(id).orElseThrow(), by.login().value(), said, now);
            });
            return store.findById(id).orElseThrow();
        });
        if (decided.status() == AccessStatus.APPROVED) {
            // Once committed: a reconciliation asked for inside the transaction may have read before it.
            changed.accept(decided.cluster());
        }
        return decided;
    }

    /** What a request may still be given, as things stand: how many approvals it needs now. */
    private record Standing(int approvals) {}

    /**
     * Inside the decision's transaction: refuses a request whose requester is disabled, whose
     * eligible grant is no longer in force, or which asks for longer than is allowed now; otherwise
     * how many approvals it needs under the policy as it is now.
     */
    private Standing standing(AccessRequest request, AccessPolicy policy) {
        boolean enabled = subjects.findById(request.actor().subject()).map(Subject::enabled)
                .orElse(false);
        if (!enabled) {
            throw Message.REQUEST_REQUESTER_DISABLED.refusal();
        }
        int most = switch (request.course().origin()) {
            case AGENT -> AccessRequest.MAX_MINUTES;
            case PERSON -> policy.maxMinutes();
            case ELIGIBLE -> {
                EligibleGrant held = eligible.find(request.course().eligibleId().orElseThrow())
                        .filter(EligibleGrant::active).orElseThrow(Message.ELIGIBLE_REVOKED::refusal);
                yield held.maxMinutes();
            }
        };
        if (request.minutes() > most) {
            throw Message.REQUEST_BEYOND_MAXIMUM.refusal(request.minutes(), most);
        }
        return new Standing(request.decider().isPresent() ? 1 : policy.approvalsFor(request.role(), request.scope()));
    }

    /** Whether a first approval still counts: its author enabled, still deciding this cluster, not the requester. */
    private Predicate<Course.Decision> stillCounts(AccessRequest request, AccessPolicy policy) {
        return decision -> {
            Optional<Subject> author;
            try {
                author = subjects.findByLogin(new Login(decision.by()));
            } catch (IllegalArgumentException e) {
                return false;
            }
            return author.filter(Subject::enabled)
                    .filter(found -> !found.id().equals(request.actor().subject()))
                    .filter(found -> policy.decidedBy(found.id(), found.admin())).isPresent();
        };
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
    private AccessRequest lend(AccessRequest request, Principal by, Optional<String> said, Instant now,
            Instant until) {
        LentAccess.Lent asked = new LentAccess.Lent(request.actor().subject(), request.cluster(), request.role(),
                request.scope(), until);
        if (!subjects.findById(request.actor().subject()).map(Subject::enabled).orElse(false)) {
            throw Message.REQUEST_REQUESTER_DISABLED.refusal();
        }
        List<Grant> active = authority.inForce(request.actor().subject(), Optional.of(request.cluster()));
        Grant lent = asked.through(active).orElseThrow(Message.REQUEST_NOT_HELD::refusal);
        Instant ends = lent.expiresAt().orElse(until);
        transactions.inTransaction(() -> {
            if (!store.approve(request.id(), now, by.login().value(), said, lent.id(), ends)) {
                throw AccessRequests.notDecidable(store.findById(request.id()).orElseThrow(), now);
            }
            record(EventType.AGENT_ACCESS_APPROVED, request, by, withComment(Map.of("grant", lent.id(), "until",
                    ends.toString()), said));
            return null;
        });
        // The lent role's group is bound in the cluster when no grant carries it exactly.
        changed.accept(request.cluster());
        return store.findById(request.id()).orElseThrow();
    }

    public AccessRequest deny(String id, Principal by) {
        return deny(id, by, Optional.empty());
    }

    public AccessRequest deny(String id, Principal by, Optional<String> comment) {
        AccessRequest request = requests.decidable(id, by).orElseThrow(Message.NOT_FOUND::refusal);
        Optional<String> said = comment(comment);
        Instant now = clock.instant();
        transactions.inTransaction(() -> {
            if (!store.deny(id, now, by.login().value(), said)) {
                throw AccessRequests.notDecidable(store.findById(id).orElseThrow(), now);
            }
            record(request.byPerson() ? EventType.ACCESS_REQUEST_DENY : EventType.AGENT_ACCESS_DENIED, request, by,
                    withComment(Map.of(), said));
            notices.decided(store.findById(id).orElseThrow(), by.login().value(), said, now);
            return null;
        });
        return store.findById(id).orElseThrow();
    }

    private static Optional<String> comment(Optional<String> comment) {
        Optional<String> said = comment.map(String::strip).filter(text -> !text.isEmpty());
        if (said.filter(text -> text.length() > Course.MAX_COMMENT).isPresent()) {
            throw Message.ACCESS_COMMENT.refusal(Course.MAX_COMMENT);
        }
        return said;
    }

    private static Map<String, Object> withComment(Map<String, Object> details, Optional<String> comment) {
        Map<String, Object> all = new LinkedHashMap<>(details);
        comment.ifPresent(text -> all.put("comment", text));
        return all;
    }

    private void record(EventType type, AccessRequest request, Principal by, Map<String, ?> more) {
        events.record(type, request, Optional.of(by), more);
    }
}
