package dev.klave.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.messages.Message;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/** Proxy errors as Kubernetes {@code Status} objects (spec 1 §4 "Proxy", §7), also for refusals the edge makes on proxy paths. */
public final class KubeStatus {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private KubeStatus() {}

    /** The Kubernetes {@code StatusReason} of a code; other client errors are {@code BadRequest}. */
    public static String reason(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 409 -> "Conflict";
            case 413 -> "RequestEntityTooLarge";
            case 429 -> "TooManyRequests";
            case 502 -> "BadGateway";
            case 503 -> "ServiceUnavailable";
            default -> code >= 400 && code < 500 ? "BadRequest" : "InternalError";
        };
    }

    public static void send(HttpServerResponse response, int code, String message) {
        if (response.ended() || response.closed() || response.headWritten()) {
            return;
        }
        ObjectNode status = MAPPER.createObjectNode();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure");
        status.put("message", message);
        status.put("reason", reason(code));
        status.put("code", code);
        response.setStatusCode(code);
        response.putHeader("Content-Type", "application/json");
        response.putHeader("Cache-Control", "no-store");
        response.end(Buffer.buffer(status.toString()));
    }

    public static void send(HttpServerResponse response, Message message, Object... parts) {
        send(response, message.status(), message.text(parts));
    }
}
