package dev.klave.audit;

import java.util.List;

/** Storage of control events; never changed once written. */
public interface ControlEventStore {
    void append(ControlEvent event);

    /** Up to {@code limit} events, newest first, after skipping {@code offset}. */
    default List<ControlEvent> newestFirst(int offset, int limit) {
        return newestFirst(EventFilter.ALL, offset, limit);
    }

    /** As above, only the events {@code filter} keeps. */
    default List<ControlEvent> newestFirst(EventFilter filter, int offset, int limit) {
        return newestFirst(filter, java.util.Optional.empty(), offset, limit);
    }

    /**
     * As above, starting after the event {@code afterId} (keyset: the next page costs what the
     * first does); an id that names no event gives nothing after it.
     */
    List<ControlEvent> newestFirst(EventFilter filter, java.util.Optional<String> afterId, int offset, int limit);

    /** How many events of {@code type} (and {@code via}, when given) were written at or after {@code since}. */
    int count(String type, java.util.Optional<String> via, java.time.Instant since);
}
