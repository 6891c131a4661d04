package dev.klave.http;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an endpoint answers: a status, an optional body and extra headers. A header may appear
 * several times (two {@code Set-Cookie}: a session opened and a state cookie cleared).
 */
public record ApiResponse(int status, Optional<Object> body, List<Header> headers) {
    public ApiResponse {
        if (status < 200 || status > 599) {
            throw new IllegalArgumentException("status out of range: " + status);
        }
        requireNonNull(body, "body is null");
        headers = List.copyOf(requireNonNull(headers, "headers is null"));
    }

    /** One header line. */
    public record Header(String name, String value) {
        public Header {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
            if (name.isEmpty() || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                // A line break would end the header early: response splitting (RFC 9112 §4).
                throw new IllegalArgumentException("header " + name + " has a line break or no name");
            }
        }
    }

    public static ApiResponse ok(Object body) {
        return new ApiResponse(200, Optional.of(body), List.of());
    }

    public static ApiResponse created(Object body) {
        return new ApiResponse(201, Optional.of(body), List.of());
    }

    public static ApiResponse noContent() {
        return new ApiResponse(204, Optional.empty(), List.of());
    }

    /**
     * 302 to {@code location}: where a browser goes after a sign-in step. A relative location
     * stays on this origin (RFC 9110 §10.2.2).
     */
    public static ApiResponse redirect(String location) {
        return new ApiResponse(302, Optional.empty(), List.of(new Header("Location", location)));
    }

    /** A body that is not JSON (a manifest to download), sent as it is. */
    public record RawBody(String contentType, byte[] content) {
        public RawBody {
            requireNonNull(contentType, "contentType is null");
            content = requireNonNull(content, "content is null").clone();
        }
    }

    /**
     * A body written while it is produced, chunked (RFC 9112 §7.1): the producer runs on the
     * request's virtual thread and each {@code write} returns once the connection has taken the
     * bytes, so a slow client slows the producer instead of filling memory.
     */
    public record StreamedBody(String contentType, Producer producer) {
        public StreamedBody {
            requireNonNull(contentType, "contentType is null");
            requireNonNull(producer, "producer is null");
        }
    }

    /** Writes a streamed body; what it throws after the first bytes can only cut the response. */
    @FunctionalInterface
    public interface Producer {
        void produce(Chunks out) throws Exception;
    }

    /** Where a producer writes. */
    @FunctionalInterface
    public interface Chunks {
        /** @throws java.io.IOException when the client left */
        void write(byte[] bytes) throws java.io.IOException, InterruptedException;
    }

    public static ApiResponse streamed(String contentType, Producer producer) {
        return new ApiResponse(200, Optional.of(new StreamedBody(contentType, producer)), List.of());
    }

    public static ApiResponse raw(String contentType, byte[] content) {
        return new ApiResponse(200, Optional.of(new RawBody(contentType, content)), List.of());
    }

    /** The same answer with one more header line; an earlier line of the same name stays. */
    public ApiResponse withHeader(String name, String value) {
        List<Header> more = new ArrayList<>(headers);
        more.add(new Header(name, value));
        return new ApiResponse(status, body, more);
    }

    /** The same answer setting one more cookie ({@code value} is a whole {@code Set-Cookie} value). */
    public ApiResponse withCookie(String value) {
        return withHeader("Set-Cookie", value);
    }

    /** Every value of {@code name}, matched without regard to case, in order. */
    public List<String> headerValues(String name) {
        return headers.stream().filter(header -> header.name().equalsIgnoreCase(name)).map(Header::value).toList();
    }
}
