package dev.klave.http;

import dev.klave.messages.Message;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.util.Map;
import java.util.Set;

/** Writing answers in the API's form: JSON, never cached, errors as {@code {"error": text}}. */
final class Responses {
    static final String JSON = "application/json; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";

    private Responses() {}

    static void json(HttpServerResponse response, int status, byte[] body, Map<String, String> headers) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status);
        apiHeaders(response);
        headers.forEach(response::putHeader);
        if (status == 204) {
            response.end();
            return;
        }
        response.putHeader("Content-Type", JSON);
        response.end(Buffer.buffer(body));
    }

    static void raw(HttpServerResponse response, int status, ApiResponse.RawBody body, Map<String, String> headers) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status);
        apiHeaders(response);
        headers.forEach(response::putHeader);
        response.putHeader("Content-Type", body.contentType());
        response.end(Buffer.buffer(body.content()));
    }

    static void error(HttpServerResponse response, int status, String text) {
        json(response, status, Json.write(Map.of("error", text)), Map.of());
    }

    static void error(HttpServerResponse response, Message message) {
        error(response, message.status(), message.text());
    }

    static void methodNotAllowed(HttpServerResponse response, Set<String> allowed) {
        response.putHeader("Allow", String.join(", ", allowed));
        error(response, Message.METHOD_NOT_ALLOWED);
    }

    /** Headers every API answer carries (spec 1 §4: {@code Cache-Control: no-store}). */
    static void apiHeaders(HttpServerResponse response) {
        response.putHeader("Cache-Control", "no-store");
        response.putHeader("X-Content-Type-Options", "nosniff");
    }

    static void text(HttpServerResponse response, int status, String text, boolean head) {
        if (response.ended() || response.closed()) {
            return;
        }
        Buffer body = Buffer.buffer(text);
        response.setStatusCode(status);
        response.putHeader("Content-Type", TEXT);
        response.putHeader("X-Content-Type-Options", "nosniff");
        response.putHeader("Content-Length", String.valueOf(body.length()));
        if (head) {
            response.end();
        } else {
            response.end(body);
        }
    }
}
