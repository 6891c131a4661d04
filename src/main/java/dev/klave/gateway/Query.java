package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * A request's query: forwarded byte for byte as the client sent it, and read the way the API
 * server reads it for what changes how Klave treats the request — {@code watch} (a watch is a
 * stream) and {@code follow} (a followed log is one too). Kubernetes reads both with Go's
 * {@code strconv.ParseBool}; the first occurrence of a parameter counts, as with Go's
 * {@code url.Values.Get}.
 */
public record Query(String raw, boolean watch, boolean follow) {
    public static final Query NONE = new Query("", false, false);
    /** What Go's {@code strconv.ParseBool} reads as true. */
    private static final Set<String> TRUE = Set.of("1", "t", "T", "true", "TRUE", "True");

    public Query {
        requireNonNull(raw, "raw is null");
    }

    /** @param raw the query as sent, without its {@code ?}; empty for none */
    public static Query parse(String raw) {
        requireNonNull(raw, "raw is null");
        if (raw.isEmpty()) {
            return NONE;
        }
        Boolean watch = null;
        Boolean follow = null;
        for (String pair : raw.split("[&]")) {
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            if (watch == null && name.equals("watch")) {
                watch = TRUE.contains(value);
            } else if (follow == null && name.equals("follow")) {
                follow = TRUE.contains(value);
            }
        }
        return new Query(raw, Boolean.TRUE.equals(watch), Boolean.TRUE.equals(follow));
    }

    /** The query to send: {@code ?} and the raw text, or nothing. */
    public String suffix() {
        return raw.isEmpty() ? "" : "?" + raw;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            // The API server would refuse it; it is no flag either way.
            return text;
        }
    }
}
