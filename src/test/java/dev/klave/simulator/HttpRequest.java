package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One HTTP/1.1 request as read off the wire. Header names are kept lower-cased (HTTP names are
 * case-insensitive, and kubectl mixes cases), each with every value in arrival order.
 */
record HttpRequest(String method, String target, String path, Map<String, List<String>> query,
        Map<String, List<String>> headers, byte[] body) {
    HttpRequest {
        requireNonNull(method, "method is null");
        requireNonNull(target, "target is null");
        requireNonNull(path, "path is null");
        query = copy(query);
        headers = copy(headers);
        requireNonNull(body, "body is null");
    }

    static HttpRequest of(String method, String target, Map<String, List<String>> headers, byte[] body) {
        int question = target.indexOf('?');
        String rawPath = question < 0 ? target : target.substring(0, question);
        String rawQuery = question < 0 ? "" : target.substring(question + 1);
        return new HttpRequest(method, target, decode(rawPath), parseQuery(rawQuery), headers, body);
    }

    Optional<String> header(String name) {
        List<String> values = headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        return values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /** Every value of a header, also splitting comma-joined lists (RFC 9110 §5.3). */
    List<String> headerValues(String name) {
        List<String> values = new ArrayList<>();
        for (String value : headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of())) {
            for (String part : value.split(",")) {
                if (!part.isBlank()) {
                    values.add(part.strip());
                }
            }
        }
        return values;
    }

    Optional<String> queryParameter(String name) {
        List<String> values = query.getOrDefault(name, List.of());
        return values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    List<String> queryParameters(String name) {
        return query.getOrDefault(name, List.of());
    }

    boolean flag(String name) {
        return queryParameter(name).map(value -> value.equals("true") || value.equals("1")).orElse(false);
    }

    private static Map<String, List<String>> parseQuery(String rawQuery) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (rawQuery.isEmpty()) {
            return query;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decodeQuery(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decodeQuery(pair.substring(equals + 1));
            query.computeIfAbsent(name, key -> new ArrayList<>()).add(value);
        }
        return query;
    }

    private static String decode(String rawPath) {
        // Paths do not use '+' for spaces, so URLDecoder must not see a literal '+'.
        return URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String decodeQuery(String value) {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }

    private static Map<String, List<String>> copy(Map<String, List<String>> map) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        map.forEach((key, values) -> copy.put(key, List.copyOf(values)));
        return Collections.unmodifiableMap(copy);
    }
}
