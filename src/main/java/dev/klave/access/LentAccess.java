package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.List;

/**
 * Access in force that is no grant of its own: a role a person let their delegated agent's session
 * use for some minutes by approving its access request (spec 3 "request_access"), carried by a
 * grant of the person that covers it ({@link Grant#covers}) and never beyond that grant's end. The
 * person's own credentials never reach it; the reconciler binds its role's group while it is in
 * force, so the session can act with exactly that role.
 */
public interface LentAccess {
    /** What is lent on {@code cluster} and runs at {@code now} (whether a grant still covers it is the reader's to check). */
    List<Lent> inForce(ClusterId cluster, Instant now);

    /** What is lent to one session and runs at {@code now}, on every cluster. */
    List<Lent> lentTo(String sessionId, Instant now);

    /** Nothing lent anywhere. */
    LentAccess NONE = new LentAccess() {
        @Override
        public List<Lent> inForce(ClusterId cluster, Instant now) {
            return List.of();
        }

        @Override
        public List<Lent> lentTo(String sessionId, Instant now) {
            return List.of();
        }
    };

    /** One role lent on one scope to one subject's session, until its minutes end. */
    record Lent(SubjectId subject, ClusterId cluster, Tier role, Scope scope, Instant until) {
        public Lent {
            requireNonNull(subject, "subject is null");
            requireNonNull(cluster, "cluster is null");
            requireNonNull(role, "role is null");
            requireNonNull(scope, "scope is null");
            requireNonNull(until, "until is null");
        }

        /** The grant among {@code active} that covers this, and ends last; the lent grant made of it. */
        public java.util.Optional<Grant> through(List<Grant> active) {
            return active.stream()
                    .filter(grant -> grant.subjectId().equals(subject) && grant.clusterId().equals(cluster)
                            && grant.covers(role, scope))
                    .max(java.util.Comparator.comparing((Grant grant) -> grant.expiresAt().orElse(Instant.MAX)))
                    .map(grant -> grant.lentAs(role, scope, until));
        }
    }
}
