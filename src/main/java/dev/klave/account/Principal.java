package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.ControlEvent;
import dev.klave.audit.EventParty;
import dev.klave.http.ApiRequest;
import dev.klave.http.Caller;

/**
 * The person behind a request, resolved once at the edge — from their session, reloaded from the
 * database for every request (spec 1 §5 "Sessions"), so a role removed a moment ago is gone; or
 * from their own credential, presented at the access API from a terminal (issue 41), which is no
 * session and says so.
 *
 * @param session the hash of the web session's id, when the person came with one
 */
public record Principal(SubjectId subjectId, Login login, boolean admin, java.util.Optional<String> session)
        implements EventParty {
    public Principal {
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(login, "login is null");
        requireNonNull(session, "session is null");
    }

    /** The person the edge found behind a session. */
    public static Principal of(Caller.Session session) {
        return new Principal(new SubjectId(session.subjectId()), new Login(session.login()), session.admin(),
                java.util.Optional.of(session.sessionIdHash()));
    }

    /**
     * A person presenting their own credential rather than a session (the access API from a
     * terminal): never with an administrator's rights, which only a session carries.
     */
    public static Principal holding(Subject person) {
        return new Principal(person.id(), person.login(), false, java.util.Optional.empty());
    }

    /**
     * The hash of the caller's web session's id.
     *
     * @throws IllegalStateException for a person who came with a credential: only a session's routes ask
     */
    public String sessionIdHash() {
        return session.orElseThrow(() -> new IllegalStateException("a credential holder has no web session"));
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
