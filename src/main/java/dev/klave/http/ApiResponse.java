package dev.klave.http;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** What an endpoint answers: a status, an optional JSON body and extra headers. */
public record ApiResponse(int status, Optional<Object> body, Map<String, String> headers) {
    public ApiResponse {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("status out of range: " + status);
        }
        requireNonNull(body, "body is null");
        headers = Map.copyOf(requireNonNull(headers, "headers is null"));
    }

    public static ApiResponse ok(Object body) {
        return new ApiResponse(200, Optional.of(body), Map.of());
    }

    public static ApiResponse created(Object body) {
        return new ApiResponse(201, Optional.of(body), Map.of());
    }

    public static ApiResponse noContent() {
        return new ApiResponse(204, Optional.empty(), Map.of());
    }

    /** A body that is not JSON (a manifest to download), sent as it is. */
    public record RawBody(String contentType, byte[] content) {
        public RawBody {
            requireNonNull(contentType, "contentType is null");
            content = requireNonNull(content, "content is null").clone();
        }
    }

    public static ApiResponse raw(String contentType, byte[] content) {
        return new ApiResponse(200, Optional.of(new RawBody(contentType, content)), Map.of());
    }

    public ApiResponse withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new ApiResponse(status, body, more);
    }
}
