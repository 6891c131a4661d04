package dev.klave.kube;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A Kubernetes API path: {@code /}, or segments each meeting {@link KubeNames#isPathSegment}.
 * Held decoded, encoded once ({@link #encoded()}): every character outside RFC 3986's
 * {@code pchar} — and {@code ;}, which some front ends read as a parameter — is percent-encoded,
 * so no segment can end the path or begin a query or a fragment.
 *
 * <p>The proxy's paths come as the client sent them ({@link #parse}) and must already be in that
 * form, without any {@code %} (spec 1 §4 "Proxy": escapes are refused): a segment of them encodes
 * to itself, so what the cluster reads is byte for byte what the client sent and was checked.
 */
public final class ClusterPath {
    public static final ClusterPath ROOT = new ClusterPath(List.of());

    private final List<String> segments;
    private final String encoded;

    private ClusterPath(List<String> segments) {
        this.segments = List.copyOf(segments);
        StringBuilder path = new StringBuilder();
        for (String segment : this.segments) {
            path.append('/');
            encode(segment, path);
        }
        this.encoded = path.isEmpty() ? "/" : path.toString();
    }

    /**
     * A path from segments given one by one (decoded: a tool's {@code namespace}, {@code name}, a
     * name read from the cluster): a segment holding a {@code /} is refused rather than read as two.
     *
     * @throws dev.klave.messages.Refusal {@code PATH_INVALID} for a segment the rules refuse
     */
    public static ClusterPath of(String... segments) {
        return of(List.of(segments));
    }

    /** @see #of(String...) */
    public static ClusterPath of(List<String> segments) {
        for (String segment : segments) {
            if (!KubeNames.isPathSegment(requireNonNull(segment, "segment is null"))) {
                throw Message.PATH_INVALID.refusal();
            }
        }
        return segments.isEmpty() ? ROOT : new ClusterPath(segments);
    }

    /**
     * A path as a client sent it on the request line (spec 1 §4 "Proxy"): {@code /} or segments that
     * are each non-empty, not {@code .} or {@code ..}, and only RFC 3986 {@code pchar} characters
     * without {@code %} or {@code ;} — so the path read is the path forwarded.
     *
     * @throws dev.klave.messages.Refusal {@code PATH_INVALID}
     */
    public static ClusterPath parse(String raw) {
        requireNonNull(raw, "raw is null");
        if (!raw.startsWith("/")) {
            throw Message.PATH_INVALID.refusal();
        }
        if (raw.equals("/")) {
            return ROOT;
        }
        List<String> segments = new ArrayList<>();
        // "/a/b/" keeps a trailing empty segment, which Kubernetes never needs.
        for (String segment : raw.substring(1).split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw Message.PATH_INVALID.refusal();
            }
            for (int i = 0; i < segment.length(); i++) {
                if (!kept(segment.charAt(i))) {
                    throw Message.PATH_INVALID.refusal();
                }
            }
            segments.add(segment);
        }
        return new ClusterPath(segments);
    }

    /** The segments, decoded, in order; none for {@code /}. */
    public List<String> segments() {
        return segments;
    }

    /** The path to send: each segment percent-encoded once. */
    public String encoded() {
        return encoded;
    }

    /** This path with more segments after it. */
    public ClusterPath append(String... more) {
        List<String> all = new ArrayList<>(segments);
        all.addAll(List.of(more));
        return of(all);
    }

    /** RFC 3986 {@code pchar} without {@code %} (escapes are made here only) and {@code ;}. */
    static boolean kept(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || "-._~!$&'()*+,=:@".indexOf(c) >= 0;
    }

    private static void encode(String segment, StringBuilder out) {
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && kept(c)) {
                out.append(c);
            } else {
                Percent.append(b, out);
            }
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ClusterPath path && path.segments.equals(segments);
    }

    @Override
    public int hashCode() {
        return segments.hashCode();
    }

    @Override
    public String toString() {
        return encoded;
    }
}
