package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The notifications to deliver, one row per destination or recipient. {@link #add} runs in the
 * caller's transaction; the unique (channel, target, key) drops a second row for the same event.
 * Rows are delivered by {@link Lane}: each webhook destination, and e-mail, on its own, so one
 * that hangs holds up only its own rows.
 */
public interface Outbox {
    /** Adds a row unless one with the same channel, target and key exists; true when added. */
    boolean add(Row row);

    /**
     * The lanes with a row due at {@code now} (not delivered, not given up, not claimed by a
     * replica still within its claim), at most {@code limit} of them.
     */
    List<Lane> due(Instant now, int limit);

    /**
     * Claims the lane's next row due at {@code now} (the earliest due first) until {@code until},
     * so no other replica sends it before then; empty when the lane has none left.
     */
    Optional<Row> claim(Lane lane, Instant now, Instant until);

    void delivered(String id, Instant at, int status);

    /**
     * A failed attempt: tried again at {@code next}, or given up when {@code next} is empty. A row
     * already delivered (by a replica that took it over) stays delivered.
     */
    void failed(String id, Instant at, Optional<Integer> status, String error, Optional<Instant> next);

    /** A destination's most recent rows, newest first: its delivery log. */
    List<Row> ofDestination(String destinationId, int limit);

    /** One row to deliver (or delivered). */
    record Row(String id, Channel channel, Optional<String> destinationId, String target, Kind kind, String key,
            String payload, Instant createdAt, int attempts, Instant nextAttemptAt, Optional<Instant> deliveredAt,
            Optional<Instant> gaveUpAt, Optional<Integer> lastStatus, Optional<String> lastError) {
        public Row {
            requireNonNull(id, "id is null");
            requireNonNull(channel, "channel is null");
            requireNonNull(destinationId, "destinationId is null");
            requireNonNull(target, "target is null");
            requireNonNull(kind, "kind is null");
            requireNonNull(key, "key is null");
            requireNonNull(payload, "payload is null");
            requireNonNull(createdAt, "createdAt is null");
            requireNonNull(nextAttemptAt, "nextAttemptAt is null");
            requireNonNull(deliveredAt, "deliveredAt is null");
            requireNonNull(gaveUpAt, "gaveUpAt is null");
            requireNonNull(lastStatus, "lastStatus is null");
            requireNonNull(lastError, "lastError is null");
            if (destinationId.isPresent() != (channel == Channel.WEBHOOK)) {
                throw new IllegalArgumentException("a webhook row, and only one, names its destination");
            }
        }

        public Lane lane() {
            return new Lane(channel, destinationId);
        }
    }

    /** Where rows are sent one after another: one webhook destination, or e-mail (one mail server). */
    record Lane(Channel channel, Optional<String> destinationId) {
        public static final Lane EMAIL = new Lane(Channel.EMAIL, Optional.empty());

        public Lane {
            requireNonNull(channel, "channel is null");
            requireNonNull(destinationId, "destinationId is null");
            if (destinationId.isPresent() != (channel == Channel.WEBHOOK)) {
                throw new IllegalArgumentException("a webhook lane, and only one, names its destination");
            }
        }

        public static Lane webhook(String destinationId) {
            return new Lane(Channel.WEBHOOK, Optional.of(destinationId));
        }

        @Override
        public String toString() {
            return destinationId.map(id -> "destination " + id).orElse("e-mail");
        }
    }

    /** Where a row goes. */
    enum Channel {
        WEBHOOK("webhook"),
        EMAIL("email");

        private final String code;

        Channel(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }

        public static Channel parse(String code) {
            for (Channel channel : values()) {
                if (channel.code.equals(code)) {
                    return channel;
                }
            }
            throw new IllegalArgumentException("unknown channel: " + code);
        }
    }
}
