package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Optional;

/**
 * An agent's request for a role on a scope of one cluster for some minutes (spec 3 "request_access"),
 * and, once a person approves it, the grant it became.
 *
 * @param decider who decides: the person the agent acts for; empty for a bot's (administrators)
 * @param decidedBy the login of the person who decided (the second, when it needed two)
 * @param course where it came from, its approvals, comment and end (issue 41)
 */
public record AccessRequest(String id, Actor actor, Optional<SubjectId> decider, ClusterId cluster, Scope scope,
        Tier role, int minutes, String reason, AccessStatus status, Instant createdAt, Instant expiresAt,
        Optional<Instant> decidedAt, Optional<String> decidedBy, Optional<String> grantId,
        Optional<Instant> grantExpiresAt, Course course) {
    /** Spec 3 §8: {@code minutes} 1 to 480, for an agent. */
    public static final int MAX_MINUTES = 480;
    /** A person's request (issue 41): at least 15 minutes… */
    public static final int MIN_PERSON_MINUTES = 15;
    /** …and at most a day, the highest maximum a cluster's policy may set. */
    public static final int MAX_PERSON_MINUTES = 1440;
    /** Spec 3 §8: {@code reason} up to 500 characters. */
    public static final int MAX_REASON = 500;

    public AccessRequest {
        requireNonNull(id, "id is null");
        requireNonNull(actor, "actor is null");
        requireNonNull(decider, "decider is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(scope, "scope is null");
        requireNonNull(role, "role is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(status, "status is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(decidedAt, "decidedAt is null");
        requireNonNull(decidedBy, "decidedBy is null");
        requireNonNull(grantId, "grantId is null");
        requireNonNull(grantExpiresAt, "grantExpiresAt is null");
        requireNonNull(course, "course is null");
        if (!id.startsWith(RequestIds.ACCESS)) {
            throw new IllegalArgumentException("an access request's id begins with " + RequestIds.ACCESS);
        }
        int most = course.origin() == Course.Origin.AGENT ? MAX_MINUTES : MAX_PERSON_MINUTES;
        if (minutes < 1 || minutes > most) {
            throw new IllegalArgumentException("minutes is 1 to " + most + ": " + minutes);
        }
        if (course.origin() != Course.Origin.AGENT && (actor.sessionId().isPresent() || decider.isPresent())) {
            throw new IllegalArgumentException("a person's own request has no session and no single decider");
        }
        if (reason.isBlank() || reason.length() > MAX_REASON) {
            throw new IllegalArgumentException("a reason is 1 to " + MAX_REASON + " characters");
        }
        if (grantId.isPresent() != grantExpiresAt.isPresent() || grantId.isPresent() != (status == AccessStatus.APPROVED)) {
            throw new IllegalArgumentException("an approved access request, and only one, names its grant");
        }
        if (!expiresAt.isAfter(createdAt)) {
            throw new IllegalArgumentException("an access request expires after it was made");
        }
    }

    /** The status as it stands at {@code now}: a pending request past its expiry reads as expired. */
    public AccessStatus statusAt(Instant now) {
        if (status == AccessStatus.PENDING && !now.isBefore(expiresAt)) {
            return AccessStatus.EXPIRED;
        }
        return status;
    }

    /** Whether the grant this request became still runs at {@code now} (revocation and an early end aside). */
    public boolean grantRunsAt(Instant now) {
        return course.endedAt().isEmpty() && grantExpiresAt.map(now::isBefore).orElse(false);
    }

    /** A person's own request or activation, not an agent's (issue 41). */
    public boolean byPerson() {
        return course.origin() != Course.Origin.AGENT;
    }
}
