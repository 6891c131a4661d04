package dev.klave.outbound;

import static java.util.Objects.requireNonNull;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;

/** A complete answer within the deadline and the size limit: its status, headers and body. */
public record Answer(int status, HttpHeaders headers, byte[] body) {
    public Answer {
        requireNonNull(headers, "headers is null");
        requireNonNull(body, "body is null");
    }

    /** The body as UTF-8 text. */
    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
