package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * A webhook notifications go to: its format, its address (sealed at rest; shown shortened), the
 * kinds it wants, and how its last delivery went.
 *
 * @param secret the HMAC key of a {@link Format#JSON} destination
 * @param failingSince when deliveries started failing without a success since
 */
public record Destination(String id, String name, Format format, URI url, String urlShown, Optional<String> secret,
        Set<Kind> kinds, Instant createdAt, Optional<String> createdBy, Delivery last,
        Optional<Instant> failingSince) {
    public Destination {
        requireNonNull(id, "id is null");
        requireNonNull(name, "name is null");
        requireNonNull(format, "format is null");
        requireNonNull(url, "url is null");
        requireNonNull(urlShown, "urlShown is null");
        requireNonNull(secret, "secret is null");
        kinds = Set.copyOf(requireNonNull(kinds, "kinds is null"));
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(createdBy, "createdBy is null");
        requireNonNull(last, "last is null");
        requireNonNull(failingSince, "failingSince is null");
        if (secret.isPresent() != (format == Format.JSON)) {
            throw new IllegalArgumentException("a JSON destination, and only one, has a signing secret");
        }
    }

    /** How it is written. */
    public enum Format {
        /** A Slack-compatible incoming webhook: text and blocks, a link to decide in Klave. */
        SLACK("slack"),
        /** A JSON event signed with HMAC-SHA256 in {@code Klave-Signature}, its time included. */
        JSON("json");

        private final String code;

        Format(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }

        public static Format parse(String code) {
            for (Format format : values()) {
                if (format.code.equals(code)) {
                    return format;
                }
            }
            throw new IllegalArgumentException("unknown format: " + code);
        }
    }

    /** The last attempt: when, the answer's status (absent when none came), the error, the last success. */
    public record Delivery(Optional<Instant> attemptAt, Optional<Integer> status, Optional<String> error,
            Optional<Instant> deliveredAt) {
        public static final Delivery NONE = new Delivery(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());

        public Delivery {
            requireNonNull(attemptAt, "attemptAt is null");
            requireNonNull(status, "status is null");
            requireNonNull(error, "error is null");
            requireNonNull(deliveredAt, "deliveredAt is null");
        }
    }
}
