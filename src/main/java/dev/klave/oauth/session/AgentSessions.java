package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import dev.klave.storage.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Agent sessions as people see and end them (issue 31 item 6; spec 3 §2 "Agent session"): a
 * person lists and ends their own — someone else's does not exist for them (404) — and an
 * administrator lists and ends anyone's. Ending is the session's row and a control event in one
 * transaction; the row's end moves the access generation, which every replica hears (its open
 * calls cut, its tokens refused from then on).
 */
public final class AgentSessions {
    /** The newest this many are listed; older ones are history nobody acts on. */
    static final int LISTED = 200;

    private final Transactions transactions;
    private final AgentSessionStore sessions;
    private final SubjectStore subjects;
    private final ControlEvents events;
    private final Clock clock;

    public AgentSessions(Transactions transactions, AgentSessionStore sessions, SubjectStore subjects,
            ControlEvents events, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.events = requireNonNull(events, "events is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The caller's own sessions, newest first. */
    List<AgentSession> own(Principal caller) {
        return newest(sessions.list(Optional.of(caller.subjectId())));
    }

    /** Everyone's sessions, newest first (administrators). */
    List<AgentSession> all() {
        return newest(sessions.list(Optional.empty()));
    }

    /** Ends one of the caller's own sessions; anyone else's is 404, as if it did not exist. */
    AgentSession endOwn(String id, Principal caller) {
        AgentSession session = sessions.findById(id).filter(found -> found.person().equals(caller.subjectId()))
                .orElseThrow(Message.NOT_FOUND::refusal);
        return end(session, caller);
    }

    /** Ends anyone's session: for administrators only (the route's access class). */
    AgentSession endAny(String id, Principal administrator) {
        return end(sessions.findById(id).orElseThrow(Message.NOT_FOUND::refusal), administrator);
    }

    /** One transaction: the row and its event. A session already ended keeps its first end and reason. */
    private AgentSession end(AgentSession session, Principal by) {
        Instant now = clock.instant();
        String reason = by.subjectId().equals(session.person()) ? Text.AGENT_SESSION_ENDED_BY_PERSON.text()
                : Text.AGENT_SESSION_ENDED_BY_ADMIN.text(by.login().value());
        transactions.inTransaction(() -> {
            if (sessions.end(session.id(), now, reason)) {
                Subject person = subjects.findById(session.person()).orElseThrow();
                events.event(EventType.AGENT_SESSION_END).actor(by).target(person)
                        .details(Map.of("session", session.id(), "client", session.clientId()))
                        .reason(reason).record();
            }
            return null;
        });
        return sessions.findById(session.id()).orElseThrow();
    }

    /** The login of whoever {@code person} is, for the administrators' list. */
    Optional<String> loginOf(SubjectId person) {
        return subjects.findById(person).map(subject -> subject.login().value());
    }

    Instant now() {
        return clock.instant();
    }

    private static List<AgentSession> newest(List<AgentSession> listed) {
        return listed.size() > LISTED ? listed.subList(0, LISTED) : listed;
    }
}
