package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One thing to tell: a Spanish title and lines, a link into Klave (where the reader signs in to
 * act), and data for machines. Never a token, a kubeconfig or a secret value.
 *
 * @param key what makes it once: the same key to the same destination is one delivery
 * @param data the generic JSON event's {@code data}: plain values only
 */
public record Notification(Kind kind, String key, Instant occurredAt, String title, List<String> lines, URI link,
        Map<String, Object> data) {
    /** A notification's title and lines are short: the reason of a request is at most 500 characters. */
    public static final int MAX_LINE = 600;

    public Notification {
        requireNonNull(kind, "kind is null");
        requireNonNull(key, "key is null");
        requireNonNull(occurredAt, "occurredAt is null");
        requireNonNull(title, "title is null");
        lines = List.copyOf(requireNonNull(lines, "lines is null"));
        requireNonNull(link, "link is null");
        data = Map.copyOf(requireNonNull(data, "data is null"));
        if (key.isBlank() || key.length() > 200) {
            throw new IllegalArgumentException("a key is 1 to 200 characters");
        }
        if (!link.isAbsolute()) {
            throw new IllegalArgumentException("a notification links to Klave with an absolute address");
        }
    }
}
