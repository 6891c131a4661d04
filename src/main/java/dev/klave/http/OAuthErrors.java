package dev.klave.http;

import dev.klave.messages.Message;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The body of a refusal in the OAuth shape (RFC 6749 §5.2, RFC 7591 §3.2.2): {@code error} is the
 * RFC's code, {@code error_description} Klave's Spanish text. An {@code oauth.*} message names its
 * code; a refusal of the edge itself (404, 405, 413, 415, 500, 503) has none, so it takes the RFC
 * code closest to what happened: {@code server_error} and {@code temporarily_unavailable} (RFC 6749
 * §4.1.2.1) for Klave's own failures, {@code invalid_request} for anything wrong with the request.
 */
final class OAuthErrors {
    private OAuthErrors() {}

    static Map<String, String> body(Message kind, String text) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", kind.oauthError().orElseGet(() -> codeOf(kind.status())));
        body.put("error_description", text);
        return body;
    }

    private static String codeOf(int status) {
        if (status == 503 || status == 429) {
            return "temporarily_unavailable";
        }
        if (status >= 500) {
            return "server_error";
        }
        return "invalid_request";
    }
}
