package dev.klave.http;

import static java.util.Objects.requireNonNull;

/**
 * Who made an API request, as the edge resolved it once, before the endpoint runs (spec 1 §5
 * "Access classes"). The edge's own type, so that {@code http} depends on no domain package: the
 * domain turns a {@link Session} into its principal.
 */
public sealed interface Caller {
    /** Nobody in particular: the route is anonymous. */
    record Anonymous() implements Caller {}

    /** A signed-in person: a valid {@code service_session} cookie of an enabled account. */
    record Session(String subjectId, String login, boolean admin, String sessionIdHash) implements Caller {
        public Session {
            requireNonNull(subjectId, "subjectId is null");
            requireNonNull(login, "login is null");
            requireNonNull(sessionIdHash, "sessionIdHash is null");
        }
    }
}
