package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grants;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reading and setting a cluster's access policy (issue 41), administrators only, each change an event. */
public final class AccessPolicies {
    private final Transactions transactions;
    private final AccessPolicyStore store;
    private final Grants grants;
    private final SubjectStore subjects;
    private final ControlEvents events;
    private final Clock clock;

    public AccessPolicies(Transactions transactions, AccessPolicyStore store, Grants grants, SubjectStore subjects,
            ControlEvents events, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.store = requireNonNull(store, "store is null");
        this.grants = requireNonNull(grants, "grants is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** @throws dev.klave.messages.Refusal 404 for an unknown cluster */
    public AccessPolicy find(String clusterId) {
        return store.find(grants.cluster(clusterId));
    }

    /** The people named, by id, as their logins; an id naming nobody is left out. */
    public List<Subject> deciders(AccessPolicy policy) {
        return policy.deciders().stream().map(subjects::findById).flatMap(java.util.Optional::stream)
                .sorted(java.util.Comparator.comparing(subject -> subject.login().value())).toList();
    }

    /**
     * Replaces a cluster's policy. Deciders are enabled people, named by id.
     *
     * @throws dev.klave.messages.Refusal 404 for an unknown cluster, 400 for a maximum out of range,
     *     a decider who is no enabled person, or too many
     */
    public AccessPolicy update(String clusterId, int maxMinutes, boolean twoApprovals, List<String> deciderIds,
            Principal by) {
        ClusterId cluster = grants.cluster(clusterId);
        if (maxMinutes < AccessRequest.MIN_PERSON_MINUTES || maxMinutes > AccessPolicy.HIGHEST_MAX_MINUTES) {
            throw Message.POLICY_MAX_MINUTES.refusal();
        }
        if (deciderIds.size() > AccessPolicy.MAX_DECIDERS) {
            throw Message.POLICY_TOO_MANY_DECIDERS.refusal(AccessPolicy.MAX_DECIDERS);
        }
        Set<SubjectId> deciders = new LinkedHashSet<>();
        List<String> logins = new java.util.ArrayList<>();
        for (String id : deciderIds) {
            Subject decider = person(id);
            deciders.add(decider.id());
            logins.add(decider.login().value());
        }
        AccessPolicy policy = new AccessPolicy(cluster, maxMinutes, twoApprovals, deciders);
        transactions.inTransaction(() -> {
            store.save(policy, clock.instant(), by.login().value());
            events.event(EventType.ACCESS_POLICY_UPDATE).actor(by)
                    .details(Map.of("cluster", cluster.value(), "max_minutes", maxMinutes, "two_approvals",
                            twoApprovals, "deciders", String.join(", ", logins)))
                    .record();
            return null;
        });
        return policy;
    }

    private Subject person(String id) {
        try {
            return subjects.findById(new SubjectId(id == null ? "" : id))
                    .filter(subject -> subject.kind() == SubjectKind.PERSON && subject.enabled())
                    .orElseThrow(() -> Message.POLICY_DECIDER.refusal(String.valueOf(id)));
        } catch (IllegalArgumentException e) {
            // Not an id at all: not echoed back.
            throw Message.POLICY_DECIDER.refusal(dev.klave.messages.Text.NOT_AN_ID.text());
        }
    }
}
