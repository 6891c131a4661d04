package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * What an access request carries beyond spec 3's fields (issue 41): where it came from, how many
 * approvals it needs and the first one when it needs two, the deciding comment, and when the access
 * it gave ended — early, by its requester, or at its end (recorded once, for the event).
 *
 * @param eligibleId the eligible grant activated, for {@link Origin#ELIGIBLE}
 * @param endedBy the login of whoever ended it early; empty when it ran to its end
 */
public record Course(Origin origin, Optional<String> eligibleId, int approvalsNeeded, Optional<Decision> first,
        Optional<String> comment, Optional<Instant> endedAt, Optional<String> endedBy) {
    /** A decider's comment: up to 500 characters. */
    public static final int MAX_COMMENT = 500;

    public Course {
        requireNonNull(origin, "origin is null");
        requireNonNull(eligibleId, "eligibleId is null");
        requireNonNull(first, "first is null");
        requireNonNull(comment, "comment is null");
        requireNonNull(endedAt, "endedAt is null");
        requireNonNull(endedBy, "endedBy is null");
        if (approvalsNeeded != 1 && approvalsNeeded != 2) {
            throw new IllegalArgumentException("a request needs one approval or two");
        }
        if (first.isPresent() && approvalsNeeded != 2) {
            throw new IllegalArgumentException("only a request that needs two approvals records a first one");
        }
        if (eligibleId.isPresent() != (origin == Origin.ELIGIBLE)) {
            throw new IllegalArgumentException("an eligible grant's activation, and only one, names it");
        }
        if (endedBy.isPresent() && endedAt.isEmpty()) {
            throw new IllegalArgumentException("who ended an access says when");
        }
    }

    /** An agent's request (spec 3 "request_access"), as every request was before issue 41. */
    public static Course agent(int approvalsNeeded) {
        return new Course(Origin.AGENT, Optional.empty(), approvalsNeeded, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    public static Course person(int approvalsNeeded) {
        return new Course(Origin.PERSON, Optional.empty(), approvalsNeeded, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    public static Course eligible(String eligibleId, int approvalsNeeded) {
        return new Course(Origin.ELIGIBLE, Optional.of(eligibleId), approvalsNeeded, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Who asks. */
    public enum Origin {
        /** An agent's {@code request_access} (a bot, or a person's delegated agent). */
        AGENT("agent"),
        /** A person, for themselves, from the web or the API. */
        PERSON("person"),
        /** A person activating an eligible grant. */
        ELIGIBLE("eligible");

        private final String code;

        Origin(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }

        public static Origin parse(String code) {
            for (Origin origin : values()) {
                if (origin.code.equals(code)) {
                    return origin;
                }
            }
            throw new IllegalArgumentException("unknown origin: " + code);
        }
    }

    /** One approval: who (a login), when, and what they said. */
    public record Decision(String by, Instant at, Optional<String> comment) {
        public Decision {
            requireNonNull(by, "by is null");
            requireNonNull(at, "at is null");
            requireNonNull(comment, "comment is null");
        }
    }
}
