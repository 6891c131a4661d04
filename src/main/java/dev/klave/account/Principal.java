package dev.klave.account;

import static java.util.Objects.requireNonNull;

/**
 * The person behind a request, resolved once at the edge from their session and reloaded from the
 * database for every request (spec 1 §5 "Sessions"), so a role removed a moment ago is gone.
 */
public record Principal(SubjectId subjectId, Login login, boolean admin, String sessionIdHash) {
    public Principal {
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(login, "login is null");
        requireNonNull(sessionIdHash, "sessionIdHash is null");
    }
}
