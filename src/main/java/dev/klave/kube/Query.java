package dev.klave.kube;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A request's query: name/value pairs, and their encoding. Built by Klave ({@link #of}, {@link
 * #with}) each name and value is percent-encoded once (everything but RFC 3986 {@code unreserved}),
 * so no value can add a parameter or end the query. Sent by a client ({@link #parse}) it is
 * forwarded as sent, once checked to hold only RFC 3986 query characters and well-formed escapes;
 * its pairs are read the way the API server reads them (Go's {@code url.ParseQuery}: {@code &}
 * separates, {@code +} is a space, a pair holding {@code ;} counts for nothing), so what Klave
 * reads — a watch, a followed log, a dry run — is what the cluster reads.
 */
public final class Query {
    public static final Query NONE = new Query(List.of(), "");
    /** What Go's {@code strconv.ParseBool} reads as true. */
    private static final Set<String> TRUE = Set.of("1", "t", "T", "true", "TRUE", "True");
    /** The one value of {@code dryRun} the API server accepts (it refuses any other with 400). */
    public static final String DRY_RUN_ALL = "All";

    /** One parameter, decoded. */
    public record Pair(String name, String value) {
        public Pair {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }

    private final List<Pair> pairs;
    private final String encoded;

    private Query(List<Pair> pairs, String encoded) {
        this.pairs = List.copyOf(pairs);
        this.encoded = encoded;
    }

    /** A query made by Klave from its pairs, in order. */
    public static Query of(List<Pair> pairs) {
        Query query = NONE;
        for (Pair pair : pairs) {
            query = query.with(pair.name(), pair.value());
        }
        return query;
    }

    /** This query with one more pair at its end. */
    public Query with(String name, String value) {
        requireNonNull(name, "name is null");
        requireNonNull(value, "value is null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a parameter has a name");
        }
        if (!KubeNames.wellFormed(name) || !KubeNames.wellFormed(value)) {
            // A lone surrogate has no UTF-8 form: it would be sent as something else.
            throw new IllegalArgumentException("a parameter is well-formed Unicode text");
        }
        StringBuilder out = new StringBuilder(encoded);
        if (!out.isEmpty()) {
            out.append('&');
        }
        encode(name, out);
        out.append('=');
        encode(value, out);
        List<Pair> more = new ArrayList<>(pairs);
        more.add(new Pair(name, value));
        return new Query(more, out.toString());
    }

    /**
     * A query as a client sent it, without its {@code ?}; empty for none.
     *
     * @throws dev.klave.messages.Refusal {@code PATH_INVALID} for a character outside RFC 3986's
     *     query characters (or {@code ;}), or a {@code %} not followed by two hex digits
     */
    public static Query parse(String raw) {
        requireNonNull(raw, "raw is null");
        if (raw.isEmpty()) {
            return NONE;
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length() || Percent.hex(raw.charAt(i + 1)) < 0 || Percent.hex(raw.charAt(i + 2)) < 0) {
                    throw Message.PATH_INVALID.refusal();
                }
                i += 2;
            } else if (!(ClusterPath.kept(c) || c == '/' || c == '?')) {
                throw Message.PATH_INVALID.refusal();
            }
        }
        List<Pair> pairs = new ArrayList<>();
        for (String part : raw.split("&", -1)) {
            if (part.isEmpty()) {
                continue;
            }
            int equals = part.indexOf('=');
            pairs.add(new Pair(decode(equals < 0 ? part : part.substring(0, equals)),
                    equals < 0 ? "" : decode(part.substring(equals + 1))));
        }
        return new Query(pairs, raw);
    }

    public List<Pair> pairs() {
        return pairs;
    }

    /** The query to send, without its {@code ?}; empty for none. */
    public String encoded() {
        return encoded;
    }

    /** The query to send: {@code ?} and the encoded pairs, or nothing. */
    public String suffix() {
        return encoded.isEmpty() ? "" : "?" + encoded;
    }

    /** The first value of {@code name}, as Go's {@code url.Values.Get} reads it. */
    public Optional<String> first(String name) {
        return pairs.stream().filter(pair -> pair.name().equals(name)).map(Pair::value).findFirst();
    }

    /** Every value of {@code name}, in order. */
    public List<String> all(String name) {
        return pairs.stream().filter(pair -> pair.name().equals(name)).map(Pair::value).toList();
    }

    /** A watch: the API server reads {@code watch} with Go's {@code strconv.ParseBool}, first value. */
    public boolean watch() {
        return first("watch").filter(TRUE::contains).isPresent();
    }

    /** A followed log. */
    public boolean follow() {
        return first("follow").filter(TRUE::contains).isPresent();
    }

    /**
     * A dry run: {@code dryRun} given, every value {@code All} — the API server runs admission and
     * validation and persists nothing (an empty or other value is refused by it with 400).
     */
    public boolean dryRun() {
        List<String> values = all("dryRun");
        return !values.isEmpty() && values.stream().allMatch(DRY_RUN_ALL::equals);
    }

    private static void encode(String text, StringBuilder out) {
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                out.append(c);
            } else {
                Percent.append(b, out);
            }
        }
    }

    /** Go's {@code url.QueryUnescape}, on text whose escapes {@link #parse} checked. */
    private static String decode(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%') {
                bytes.write(Percent.hex(text.charAt(i + 1)) << 4 | Percent.hex(text.charAt(i + 2)));
                i += 2;
            } else if (c == '+') {
                bytes.write(' ');
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Query query && query.encoded.equals(encoded);
    }

    @Override
    public int hashCode() {
        return encoded.hashCode();
    }

    @Override
    public String toString() {
        return encoded;
    }
}
