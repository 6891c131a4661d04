package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A request as it reached the simulated API server, for tests that assert what a proxy forwarded:
 * method, path (decoded), query and every header (names lower-cased), including Impersonate-*, and
 * the request target exactly as it came on the request line.
 */
public record RecordedRequest(String method, String path, Map<String, List<String>> query,
        Map<String, List<String>> headers, String target) {
    public RecordedRequest {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        requireNonNull(target, "target is null");
        query = Map.copyOf(query);
        headers = Map.copyOf(headers);
    }

    static RecordedRequest of(HttpRequest request) {
        return new RecordedRequest(request.method(), request.path(), request.query(), request.headers(), request.target());
    }

    public Optional<String> header(String name) {
        List<String> values = headers(name);
        return values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    public List<String> headers(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }

    public Optional<String> queryParameter(String name) {
        List<String> values = query.getOrDefault(name, List.of());
        return values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }
}
