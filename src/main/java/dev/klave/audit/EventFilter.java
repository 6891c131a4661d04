package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * Which control events to list: by type (exactly, or a prefix ending in a dot: {@code user.}), by
 * a person named as actor or target, and by time.
 */
public record EventFilter(Optional<String> type, Optional<String> subjectId, Optional<Instant> from,
        Optional<Instant> to) {
    public static final EventFilter ALL = new EventFilter(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty());

    public EventFilter {
        requireNonNull(type, "type is null");
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
    }
}
