package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Untrusted;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Writing and listing control events (spec 1 §6; {@code GET /api/control-events}). */
public final class ControlEvents {
    /** Spec 1 §4: control events are listed 50 per page. */
    public static final int PAGE_SIZE = 50;
    /** The longest reason or detail an event keeps (the CI exchange's refusals run to a few hundred). */
    private static final int TEXT_KEPT = 1_000;

    private final ControlEventStore store;
    private final Clock clock;

    public ControlEvents(ControlEventStore store, Clock clock) {
        this.store = requireNonNull(store, "store is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** A builder for one event of {@code type}; {@link Draft#record()} writes it. */
    public Draft event(EventType type) {
        return new Draft(type);
    }

    /** How many events of {@code type} (by {@code via}, when given) were written since {@code since}. */
    public int count(EventType type, Optional<Via> via, Instant since) {
        return store.count(type.code(), via.map(Via::code), since);
    }

    /** One page, newest first; {@code page} counts from 1. */
    public Page page(int page) {
        return page(EventFilter.ALL, page);
    }

    /** One page of the events {@code filter} keeps, newest first. */
    public Page page(EventFilter filter, int page) {
        return page(filter, page, Optional.empty());
    }

    /**
     * One page of the events {@code filter} keeps, newest first: after the event {@code afterId}
     * (the previous page's {@code nextCursor}, issue 32) or else the {@code page}-th of spec 1.
     */
    public Page page(EventFilter filter, int page, Optional<String> afterId) {
        int offset = afterId.isPresent() ? 0 : (page - 1) * PAGE_SIZE;
        List<ControlEvent> rows = store.newestFirst(filter, afterId, offset, PAGE_SIZE + 1);
        boolean more = rows.size() > PAGE_SIZE;
        List<ControlEvent> shown = more ? rows.subList(0, PAGE_SIZE) : rows;
        return new Page(shown, page, PAGE_SIZE, more, more ? Optional.of(shown.getLast().id()) : Optional.empty());
    }

    /** @param nextCursor the last event's id when more follow: {@code cursor} of the next page */
    public record Page(List<ControlEvent> events, int page, int pageSize, boolean hasMore,
            Optional<String> nextCursor) {
        public Page {
            events = List.copyOf(events);
            requireNonNull(nextCursor, "nextCursor is null");
        }
    }

    /** An event being described; nothing is written until {@link #record()}. */
    public final class Draft {
        private final EventType type;
        private Optional<ControlEvent.SubjectRef> actor = Optional.empty();
        private Optional<ControlEvent.SubjectRef> target = Optional.empty();
        private Optional<String> via = Optional.empty();
        private Optional<String> reason = Optional.empty();
        private Optional<String> clientIp = Optional.empty();
        private Map<String, Object> details = Map.of();

        private Draft(EventType type) {
            this.type = requireNonNull(type, "type is null");
        }

        public Draft actor(EventParty party) {
            actor = Optional.of(party.eventRef());
            return this;
        }

        public Draft actor(Optional<? extends EventParty> party) {
            party.ifPresent(this::actor);
            return this;
        }

        public Draft target(EventParty party) {
            target = Optional.of(party.eventRef());
            return this;
        }

        public Draft via(Via value) {
            via = Optional.of(value.code());
            return this;
        }

        /** A reason, escaped and cut: it may quote what a client sent (a token's claims). */
        public Draft reason(String value) {
            reason = Optional.of(Untrusted.text(value, TEXT_KEPT));
            return this;
        }

        public Draft from(InetAddress client) {
            clientIp = Optional.of(client.getHostAddress());
            return this;
        }

        /**
         * Details, kept structured (spec 2 §6: lists and booleans stay lists and booleans). Every
         * text is escaped and cut: a login typed at the sign-in form, a revocation's reason, an
         * e-mail from a provider. Values are texts, booleans, numbers or lists of texts; anything
         * else is refused, so no object from outside is ever written as it came.
         */
        public Draft details(Map<String, ?> value) {
            Map<String, Object> kept = new java.util.LinkedHashMap<>(details);
            value.forEach((key, item) -> kept.put(key, kept(key, item)));
            details = java.util.Collections.unmodifiableMap(kept);
            return this;
        }

        /** One more detail. */
        public Draft detail(String key, Object value) {
            return details(Map.of(key, value));
        }

        private static Object kept(String key, Object value) {
            return switch (value) {
                case String text -> Untrusted.text(text, TEXT_KEPT);
                case Boolean flag -> flag;
                case Integer number -> number;
                case Long number -> number;
                case java.util.List<?> list -> list.stream().map(item -> Untrusted.text(String.valueOf(item), TEXT_KEPT))
                        .toList();
                default -> throw new IllegalArgumentException("event detail " + key + " is a "
                        + value.getClass().getSimpleName());
            };
        }

        public void record() {
            store.append(new ControlEvent(UUID.randomUUID().toString(), clock.instant(), type.code(), actor, target,
                    via,
                    reason, clientIp, details));
        }
    }
}
