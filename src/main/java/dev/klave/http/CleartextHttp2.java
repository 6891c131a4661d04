package dev.klave.http;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Declines an upgrade to HTTP/2 in clear text ({@code Upgrade: h2c}, RFC 7540 §3.2, dropped by
 * RFC 9113 §3.1). A front end that passes {@code Upgrade} and {@code Connection} through would
 * otherwise hand the client an HTTP/2 connection to Klave on which it sets its own
 * {@code X-Forwarded-For} on every stream, escaping per-address limits.
 *
 * <p>Declined the way RFC 9110 §7.8 lets a server decline any upgrade: the request is served in
 * HTTP/1.1 as if it had not asked, and never answered 101. Clients that offer h2c by default (Java's
 * {@code HttpClient} does on {@code http://}) keep working; HTTP/2 spoken from the first byte is
 * refused by {@link RequestFraming} (505). The offer is removed from the request before any route
 * sees it, so the proxy never forwards it as an upgrade either.
 */
final class CleartextHttp2 {
    private CleartextHttp2() {}

    /** Removes an h2c offer ({@code Upgrade: h2c}, {@code HTTP2-Settings} and their {@code Connection} tokens). */
    static void declineUpgrade(HttpServerRequest request) {
        MultiMap headers = request.headers();
        boolean settings = headers.contains("HTTP2-Settings");
        if (!settings && !offersH2c(headers.getAll("Upgrade"))) {
            return;
        }
        headers.remove("Upgrade");
        headers.remove("HTTP2-Settings");
        List<String> kept = new ArrayList<>();
        for (String connection : headers.getAll("Connection")) {
            for (String token : connection.split(",")) {
                String name = token.strip().toLowerCase(Locale.ROOT);
                if (!name.isEmpty() && !name.equals("upgrade") && !name.equals("http2-settings")) {
                    kept.add(token.strip());
                }
            }
        }
        headers.remove("Connection");
        if (!kept.isEmpty()) {
            headers.add("Connection", String.join(", ", kept));
        }
    }

    private static boolean offersH2c(List<String> upgrades) {
        for (String upgrade : upgrades) {
            for (String protocol : upgrade.split(",")) {
                String name = protocol.strip().toLowerCase(Locale.ROOT);
                if (name.equals("h2c") || name.startsWith("h2c/")) {
                    return true;
                }
            }
        }
        return false;
    }
}
