package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.Sessions;
import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.gateway.Bearer;
import dev.klave.gateway.BearerResolver;
import dev.klave.gateway.Bearers;
import dev.klave.http.ApiRequest;
import dev.klave.messages.Message;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Who asks for access (issue 41): a signed-in person (the session cookie, as for every
 * {@code SESSION} route), or — with an {@code Authorization} header — a person's own {@code klt_}
 * credential from a terminal, resolved by the one resolver of every edge (issue 52) and checked as
 * any credential is: in force, its owner an enabled person. Never an administrator's rights: a
 * credential holder is no web session ({@link Principal#holding}).
 */
public final class Askers {
    private final BearerResolver bearers;
    private final SubjectStore subjects;
    private final Sessions sessions;
    private final Clock clock;

    public Askers(BearerResolver bearers, SubjectStore subjects, Sessions sessions, Clock clock) {
        this.bearers = requireNonNull(bearers, "bearers is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * @throws dev.klave.messages.Refusal 401 for a session that is none, or a credential missing,
     *     unknown, revoked or expired, or whose owner is a bot or disabled
     */
    AccessRequestRoutes.Asker of(ApiRequest request) {
        Optional<String> authorization = request.header("Authorization");
        if (authorization.isEmpty()) {
            return new AccessRequestRoutes.Asker(Principal.of(sessions.authenticate(request.headers("Cookie"))),
                    Optional.empty());
        }
        Bearer bearer = bearers.resolve(Bearers.token(authorization), BearerResolver.Edge.ACCESS);
        Instant now = clock.instant();
        Optional<Message> refused = bearer.refusedAt(now);
        if (refused.isPresent()) {
            throw refused.get().refusal();
        }
        Subject owner = subjects.findById(bearer.owner())
                .filter(subject -> subject.enabled() && subject.kind() == SubjectKind.PERSON)
                .orElseThrow(Message.CREDENTIAL_UNKNOWN::refusal);
        return new AccessRequestRoutes.Asker(Principal.holding(owner), Optional.of(bearer.id()));
    }
}
