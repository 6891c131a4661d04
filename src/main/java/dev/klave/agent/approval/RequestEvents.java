package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import java.util.Map;
import java.util.Optional;

/**
 * The control event of an access request's transition: who (or nobody, for the sweep), the
 * requester as target, the request's facts, and whether a bot or a person asked.
 */
final class RequestEvents {
    private final SubjectStore subjects;
    private final ControlEvents events;

    RequestEvents(SubjectStore subjects, ControlEvents events) {
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.events = requireNonNull(events, "events is null");
    }

    void record(EventType type, AccessRequest request, Optional<Principal> by, Map<String, ?> more) {
        Subject asking = subjects.findById(request.actor().subject()).orElseThrow();
        events.event(type).actor(by).target(asking)
                .details(Map.of("request", request.id(), "cluster", request.cluster().value(), "tier",
                        request.role().code(), "scope", request.scope().value(), "minutes", request.minutes()))
                .details(more)
                .detail("requester", asking.kind() == SubjectKind.BOT ? "bot" : "person")
                .record();
    }
}
