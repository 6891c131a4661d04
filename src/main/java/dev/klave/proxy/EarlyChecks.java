package dev.klave.proxy;

import dev.klave.kube.Method;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import io.vertx.core.http.HttpServerRequest;
import java.util.Locale;

/**
 * What the proxy refuses before it looks at the credential, in this order: a replica shutting down
 * (503), a method the Kubernetes API does not serve (405), a path or cluster id the rules refuse (400, 404),
 * and {@code Impersonate-*} headers in any case (400; spec 1 §4 "Proxy", §7).
 */
final class EarlyChecks {
    /** What the Kubernetes API serves ({@link Method}); sent in {@code Allow} with a 405. */
    static final String ALLOWED_METHODS = Method.ALLOW;

    private EarlyChecks() {}

    /**
     * @throws Refusal naming the first check the request fails
     */
    static ProxyTarget target(HttpServerRequest request, boolean draining) {
        if (draining) {
            throw Message.RESTARTING.refusal();
        }
        // Only what the Kubernetes API serves. CONNECT would make Klave a tunnel and TRACE echo the
        // request with its credential back (RFC 9110 §9.3.6, §9.3.8); any other name (WebDAV's,
        // made-up ones, lower case) reaches code paths in front ends and API servers nobody meant.
        // Method names are case-sensitive (RFC 9110 §9.1): {@code get} is another method, and refused.
        if (Method.parse(request.method().name()).isEmpty()) {
            throw Message.METHOD_NOT_ALLOWED.refusal();
        }
        ProxyTarget target = ProxyTarget.parse(request.uri());
        for (String name : request.headers().names()) {
            if (name.toLowerCase(Locale.ROOT).startsWith("impersonate-")) {
                throw Message.IMPERSONATION_REFUSED.refusal();
            }
        }
        return target;
    }
}
