package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Principal;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.util.Set;

/**
 * How access to one cluster is asked for and decided (issue 41): the longest a person may ask for,
 * whether broad access (the {@code admin} tier, or the whole cluster) needs two approvals, and the
 * people who decide besides the administrators. Administrators always decide: a list of deciders
 * whose members all left must not strand every request.
 *
 * @param maxMinutes the longest access a person may ask for, 15 minutes to a day
 * @param deciders people who decide this cluster's requests, besides the administrators
 */
public record AccessPolicy(ClusterId cluster, int maxMinutes, boolean twoApprovals, Set<SubjectId> deciders) {
    /** Without a policy of its own: eight hours, one approval, administrators decide. */
    public static final int DEFAULT_MAX_MINUTES = 480;
    /** The longest a cluster's maximum may be. */
    public static final int HIGHEST_MAX_MINUTES = AccessRequest.MAX_PERSON_MINUTES;
    /** At most this many named deciders per cluster. */
    public static final int MAX_DECIDERS = 50;

    public AccessPolicy {
        requireNonNull(cluster, "cluster is null");
        deciders = Set.copyOf(requireNonNull(deciders, "deciders is null"));
        if (maxMinutes < AccessRequest.MIN_PERSON_MINUTES || maxMinutes > HIGHEST_MAX_MINUTES) {
            throw new IllegalArgumentException("a maximum is 15 minutes to a day: " + maxMinutes);
        }
        if (deciders.size() > MAX_DECIDERS) {
            throw new IllegalArgumentException("at most " + MAX_DECIDERS + " deciders");
        }
    }

    public static AccessPolicy defaults(ClusterId cluster) {
        return new AccessPolicy(cluster, DEFAULT_MAX_MINUTES, false, Set.of());
    }

    /** How many approvals a request of {@code role} on {@code scope} needs under this policy. */
    public int approvalsFor(Tier role, Scope scope) {
        return twoApprovals && (role == Tier.ADMIN || role == Tier.CLUSTER_ADMIN || scope.wholeCluster()) ? 2 : 1;
    }

    /** Whether {@code caller} decides this cluster's requests (someone else's: the caller's own are never theirs). */
    public boolean decidedBy(Principal caller) {
        return decidedBy(caller.subjectId(), caller.admin());
    }

    /** Whether the person {@code subject} (an administrator or not) decides this cluster's requests. */
    public boolean decidedBy(SubjectId subject, boolean admin) {
        return admin || deciders.contains(subject);
    }
}
