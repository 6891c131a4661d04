package dev.klave.notify;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One thing to tell: a Spanish title and lines, a link into Klave (where the reader signs in to
 * act), and data for machines. Never a token, a kubeconfig or a secret value. What a person wrote
 * (a request's reason, a decision's comment) is never part of Klave's words: a {@link Line} carries
 * it apart, and each channel shows it as a quote (issue 51, finding 9).
 *
 * @param key what makes it once: the same key to the same destination is one delivery
 * @param data the generic JSON event's {@code data}: plain values only
 */
public record Notification(Kind kind, String key, Instant occurredAt, String title, List<Line> lines, URI link,
        Map<String, Object> data) {
    /** A notification's title and lines are short: the reason of a request is at most 500 characters. */
    public static final int MAX_LINE = 600;

    /**
     * A line: Klave's own words ({@code text}) and, when the line quotes what a person wrote, that
     * text ({@code quote}) — shown as a quote in every channel, its control characters removed,
     * never read as formatting or links.
     */
    public record Line(String text, Optional<String> quote) {
        public Line {
            requireNonNull(text, "text is null");
            requireNonNull(quote, "quote is null");
        }

        /** A line of Klave's own words. */
        public static Line of(String text) {
            return new Line(text, Optional.empty());
        }

        /** {@code label} in Klave's words, then what a person wrote, quoted. */
        public static Line quoting(String label, String quote) {
            return new Line(label, Optional.of(quote));
        }
    }

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
