package dev.klave.http;

import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writing answers in the API's form: JSON (or plain text where the route's policy says so), never
 * cached, errors as {@code {"error": text}}.
 */
final class Responses {
    static final String JSON = "application/json; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";
    /** How long a browser may reuse a preflight answer (Fetch standard, CORS-preflight cache). */
    private static final String PREFLIGHT_MAX_AGE = "600";

    private Responses() {}

    static void json(HttpServerResponse response, RoutePolicy policy, int status, byte[] body,
            List<ApiResponse.Header> headers) {
        if (!begin(response, policy, status, headers)) {
            return;
        }
        if (status == 204 || status == 302 || status == 202 && body.length == 0) {
            // 202: a JSON-RPC notification accepted (MCP Streamable HTTP), with nothing to say.
            response.end();
            return;
        }
        response.putHeader("Content-Type", JSON);
        response.end(Buffer.buffer(body));
    }

    static void raw(HttpServerResponse response, RoutePolicy policy, int status, ApiResponse.RawBody body,
            List<ApiResponse.Header> headers) {
        if (!begin(response, policy, status, headers)) {
            return;
        }
        response.putHeader("Content-Type", body.contentType());
        response.end(Buffer.buffer(body.content()));
    }

    /** The head of a chunked answer whose body follows as it is produced ({@link StreamedAnswer}). */
    static boolean beginStreamed(HttpServerResponse response, RoutePolicy policy, int status, String contentType,
            List<ApiResponse.Header> headers) {
        if (!begin(response, policy, status, headers)) {
            return false;
        }
        response.putHeader("Content-Type", contentType);
        response.setChunked(true);
        return true;
    }

    /** Status, the API's headers, the route's CORS and challenge headers, the endpoint's own. */
    private static boolean begin(HttpServerResponse response, RoutePolicy policy, int status,
            List<ApiResponse.Header> headers) {
        if (response.ended() || response.closed()) {
            return false;
        }
        response.setStatusCode(status);
        apiHeaders(response);
        if (policy.crossOriginReads()) {
            // Spec 3 §5: public documents and the token endpoint; never with credentials.
            response.putHeader("Access-Control-Allow-Origin", "*");
        }
        if (status == 401) {
            policy.challenge().ifPresent(value -> response.putHeader("WWW-Authenticate", value));
        }
        for (ApiResponse.Header header : headers) {
            response.headers().add(header.name(), header.value());
        }
        return true;
    }

    static void error(HttpServerResponse response, RoutePolicy policy, Message kind, String text) {
        error(response, policy, kind, text, List.of());
    }

    /** A refusal, with {@code Retry-After} when it is one of a limit's (RFC 9110 §10.2.3). */
    static void error(HttpServerResponse response, RoutePolicy policy, Refusal refusal) {
        error(response, policy, refusal.kind(), refusal.getMessage(), refusal.retryAfterSeconds()
                .map(seconds -> List.of(new ApiResponse.Header("Retry-After", seconds))).orElse(List.of()));
    }

    private static void error(HttpServerResponse response, RoutePolicy policy, Message kind, String text,
            List<ApiResponse.Header> headers) {
        if (policy.errors() == ErrorFormat.PLAIN_TEXT) {
            if (begin(response, policy, kind.status(), headers)) {
                response.putHeader("Content-Type", TEXT);
                response.end(text);
            }
            return;
        }
        Map<String, String> body = policy.errors() == ErrorFormat.OAUTH
                ? OAuthErrors.body(kind, text)
                : Map.of("error", text);
        json(response, policy, kind.status(), Json.write(body), headers);
    }

    static void error(HttpServerResponse response, RoutePolicy policy, Message message) {
        error(response, policy, message, message.text());
    }

    /** The answer to a CORS preflight (an {@code OPTIONS} with {@code Access-Control-Request-Method}). */
    static void preflight(HttpServerResponse response, Set<String> allowed) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(204);
        apiHeaders(response);
        response.putHeader("Access-Control-Allow-Origin", "*");
        response.putHeader("Access-Control-Allow-Methods", String.join(", ", allowed));
        response.putHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, MCP-Protocol-Version");
        response.putHeader("Access-Control-Max-Age", PREFLIGHT_MAX_AGE);
        response.end();
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
        // Health answers and refusals are about this moment: never cached either.
        apiHeaders(response);
        response.putHeader("Content-Length", String.valueOf(body.length()));
        if (head) {
            response.end();
        } else {
            response.end(body);
        }
    }
}
