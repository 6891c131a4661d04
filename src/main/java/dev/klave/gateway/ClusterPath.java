package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.util.Arrays;
import java.util.List;

/**
 * A Kubernetes API path as it may reach a cluster (spec 1 §4 "Proxy"): {@code /}, or segments
 * that are each non-empty, not {@code .} or {@code ..}, without {@code %}, {@code \}, {@code ;}
 * or {@code /}, in visible ASCII. A path of this type is forwarded byte for byte: what was checked
 * is what the cluster reads, whichever way in built it.
 */
public record ClusterPath(String value) {
    public static final ClusterPath ROOT = new ClusterPath("/");

    public ClusterPath {
        requireNonNull(value, "value is null");
        if (!value.startsWith("/")) {
            throw Message.PATH_INVALID.refusal();
        }
        if (!value.equals("/")) {
            // "/a/b/" keeps a trailing empty segment, which Kubernetes never needs.
            for (String segment : value.substring(1).split("/", -1)) {
                checkSegment(segment);
            }
        }
    }

    /**
     * A path from segments given one by one (a tool's {@code namespace}, {@code name}, …): a
     * segment holding a {@code /} is refused rather than read as two.
     *
     * @throws dev.klave.messages.Refusal {@code PATH_INVALID} for a segment the rules refuse
     */
    public static ClusterPath of(String... segments) {
        if (segments.length == 0) {
            return ROOT;
        }
        StringBuilder path = new StringBuilder();
        for (String segment : segments) {
            checkSegment(requireNonNull(segment, "segment is null"));
            path.append('/').append(segment);
        }
        return new ClusterPath(path.toString());
    }

    /** The segments, in order; none for {@code /}. */
    public List<String> segments() {
        return value.equals("/") ? List.of() : Arrays.asList(value.substring(1).split("/"));
    }

    private static void checkSegment(String segment) {
        if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
            throw Message.PATH_INVALID.refusal();
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c < 0x21 || c > 0x7e || c == '%' || c == '\\' || c == ';' || c == '/') {
                throw Message.PATH_INVALID.refusal();
            }
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
