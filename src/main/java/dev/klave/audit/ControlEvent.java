package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One control-plane event (spec 1 §6): a sign-in attempt, a link use, or an administrator's
 * action — who did it, what, to whom, and from where.
 */
public record ControlEvent(
        String id,
        Instant at,
        String type,
        Optional<SubjectRef> actor,
        Optional<SubjectRef> target,
        Optional<String> via,
        Optional<String> reason,
        Optional<String> clientIp,
        Map<String, Object> details) {
    public ControlEvent {
        requireNonNull(id, "id is null");
        requireNonNull(at, "at is null");
        requireNonNull(type, "type is null");
        requireNonNull(actor, "actor is null");
        requireNonNull(target, "target is null");
        requireNonNull(via, "via is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(clientIp, "clientIp is null");
        details = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(
                requireNonNull(details, "details is null")));
    }

    /** A subject as an event names it: its id and the login it had then. */
    public record SubjectRef(String id, String login) {
        public SubjectRef {
            requireNonNull(id, "id is null");
            requireNonNull(login, "login is null");
        }
    }
}
