package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The notifications to deliver, one row per destination or recipient. {@link #add} runs in the
 * caller's transaction; the unique (channel, target, key) drops a second row for the same event.
 */
public interface Outbox {
    /** Adds a row unless one with the same channel, target and key exists; true when added. */
    boolean add(Row row);

    /**
     * Claims up to {@code limit} rows due at {@code now} (not delivered, not given up, not claimed
     * by a replica still within its claim) until {@code until}; returns them.
     */
    List<Row> claim(Instant now, Instant until, int limit);

    void delivered(String id, Instant at, int status);

    /** A failed attempt: tried again at {@code next}, or given up when {@code next} is empty. */
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
