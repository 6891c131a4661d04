package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grant;
import dev.klave.access.GrantStore;
import dev.klave.cluster.ClusterId;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a bearer may reach, in one place: the gateway admits by it, the agents' tools say by it
 * where an agent may act ({@code whoami}, {@code list_clusters}). A credential reaches its owner's
 * grants in force (on the one cluster it is restricted to, when it is); a delegated agent's session
 * reaches those of its person's grants that carry a permission the person chose, and the roles
 * lent to it since by approved access requests (spec 3 §4-5; {@link SessionReach}), never
 * {@code cluster-admin}.
 */
public final class Reach {
    private final GrantStore grants;
    private final SessionReach sessions;
    private final Clock clock;

    /** How a session narrows its person's grants in force; the sessions' own package knows how. */
    @FunctionalInterface
    public interface SessionReach {
        List<Grant> narrow(Bearer.OfSession session, List<Grant> active, Instant now);
    }

    public Reach(GrantStore grants, SessionReach sessions, Clock clock) {
        this.grants = requireNonNull(grants, "grants is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The grants {@code bearer} acts with on {@code cluster} now; none when it may not act there. */
    public List<Grant> on(Bearer bearer, ClusterId cluster) {
        if (bearer.restrictedTo().filter(only -> !only.equals(cluster)).isPresent()) {
            return List.of();
        }
        return narrowed(bearer, grants.find(Optional.of(bearer.owner()), Optional.of(cluster), false));
    }

    /** The grants {@code bearer} acts with now, on every cluster it may reach. */
    public List<Grant> everywhere(Bearer bearer) {
        List<Grant> owned = grants.find(Optional.of(bearer.owner()), Optional.empty(), false).stream()
                .filter(grant -> bearer.restrictedTo().map(grant.clusterId()::equals).orElse(true))
                .toList();
        return narrowed(bearer, owned);
    }

    private List<Grant> narrowed(Bearer bearer, List<Grant> owned) {
        Instant now = clock.instant();
        List<Grant> active = owned.stream().filter(grant -> grant.activeAt(now)).toList();
        return switch (bearer) {
            case Bearer.OfCredential credential -> active;
            case Bearer.OfSession session -> sessions.narrow(session, active, now);
        };
    }
}
