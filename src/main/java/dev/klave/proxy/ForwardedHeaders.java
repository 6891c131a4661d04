package dev.klave.proxy;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The headers Klave sends the cluster for a client's request. */
final class ForwardedHeaders {
    /** RFC 9110 §7.6.1 hop-by-hop fields, plus what Klave sets or must never forward. */
    private static final Set<String> DROPPED = Set.of("connection", "keep-alive", "proxy-connection",
            "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "host",
            "authorization", "cookie", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "forwarded",
            "x-real-ip");
    /**
     * The identity headers of Kubernetes' front-proxy authentication ({@code X-Remote-User},
     * {@code X-Remote-Uid}, {@code X-Remote-Group}, {@code X-Remote-Extra-*} by default): an API
     * server that trusts Klave's certificate as a front proxy would believe a client's.
     */
    private static final String FRONT_PROXY_PREFIX = "x-remote-";

    private ForwardedHeaders() {}

    /**
     * Client headers, minus hop-by-hop ones and those named in Connection, plus Klave's own
     * {@code impersonation} (an open call's: given out only once it is registered).
     */
    static MultiMap of(MultiMap incoming, List<Map.Entry<String, String>> impersonation) {
        Set<String> named = new HashSet<>();
        for (String connection : incoming.getAll(HttpHeaders.CONNECTION)) {
            for (String token : connection.split(",")) {
                named.add(token.strip().toLowerCase(Locale.ROOT));
            }
        }
        MultiMap outgoing = MultiMap.caseInsensitiveMultiMap();
        for (String name : incoming.names()) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (DROPPED.contains(lower) || named.contains(lower) || lower.startsWith("impersonate-")
                    || lower.startsWith(FRONT_PROXY_PREFIX)) {
                continue;
            }
            outgoing.add(name, incoming.getAll(name));
        }
        // Added after the removals, so nothing a client writes in Connection can take them away;
        // none of these names survived the removals (authorization, impersonate-*).
        for (Map.Entry<String, String> header : impersonation) {
            outgoing.add(header.getKey(), header.getValue());
        }
        return outgoing;
    }

}
