package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.ControlEvent;
import dev.klave.audit.EventParty;
import dev.klave.http.ApiRequest;
import dev.klave.http.Caller;

/**
 * The person behind a request, resolved once at the edge from their session and reloaded from the
 * database for every request (spec 1 §5 "Sessions"), so a role removed a moment ago is gone.
 */
public record Principal(SubjectId subjectId, Login login, boolean admin, String sessionIdHash) implements EventParty {
    public Principal {
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(login, "login is null");
        requireNonNull(sessionIdHash, "sessionIdHash is null");
    }

    /** The person the edge found behind a session. */
    public static Principal of(Caller.Session session) {
        return new Principal(new SubjectId(session.subjectId()), new Login(session.login()), session.admin(),
                session.sessionIdHash());
    }

    /** The signed-in caller of a {@code SESSION} or {@code ADMIN} route. */
    public static Principal of(ApiRequest request) {
        return of(request.session());
    }

    @Override
    public ControlEvent.SubjectRef eventRef() {
        return new ControlEvent.SubjectRef(subjectId.value(), login.value());
    }
}
