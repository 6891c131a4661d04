package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * What must never reach a cluster through Klave (DESIGN.md "Impersonation", spec 1 §3), checked on
 * every request the simulator receives, the way Pinniped's test backend fails a test when a
 * forbidden header reaches it. A violation is recorded, not answered: the request is served as
 * kube-apiserver would, and {@link ClusterSimulator#close()} fails the test listing what came.
 *
 * <ul>
 *   <li>an {@code Authorization} that is not a bearer token the simulator issued (a client's
 *       {@code klt_} token, a Basic header) — a client's credential forwarded to the cluster;
 *   <li>any {@code Cookie}: a browser's session sent on;
 *   <li>{@code X-Forwarded-*}, {@code Forwarded}, {@code X-Real-Ip}: client-controlled origin
 *       headers, which an apiserver behind a front end may trust;
 *   <li>{@code X-Remote-*}: the apiserver's request-header authentication;
 *   <li>any {@code Impersonate-*} with the reconciler's token: it writes RBAC as itself only;
 *   <li>an {@code Impersonate-*} other than {@code -User}, {@code -Uid}, {@code -Group} (a client's
 *       {@code Impersonate-Extra-*} let through), or an {@code Impersonate-User} that is not
 *       {@code user:<login>} or {@code bot:<login>};
 *   <li>the proxy's token with no {@code Impersonate-User}: Klave acting as itself where a person's
 *       identity was not established (DESIGN.md "Fail closed"); only {@code GET /api}, the check of
 *       the token when the bootstrap JSON is pasted, is Klave's own.
 * </ul>
 */
final class HeaderGuard {
    private static final Set<String> IMPERSONATION_SET_BY_KLAVE = Set.of("impersonate-user", "impersonate-uid",
            "impersonate-group");
    /** {@code account/Login}'s format, after the prefix the reconciler gives people and bots. */
    private static final Pattern IMPERSONATED_USER = Pattern.compile("(user|bot):[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?");
    private static final String BEARER = "bearer ";

    /** Every token ever issued, revoked ones too: a revoked token is the cluster's to refuse, not a leak. */
    private final Set<String> issued = ConcurrentHashMap.newKeySet();
    private final String reconcilerToken;
    private final String proxyToken;
    private final List<HeaderViolation> violations = new ArrayList<>();

    HeaderGuard(String proxyToken, String reconcilerToken) {
        this.proxyToken = requireNonNull(proxyToken, "proxyToken is null");
        this.reconcilerToken = requireNonNull(reconcilerToken, "reconcilerToken is null");
        issued.add(proxyToken);
        issued.add(reconcilerToken);
    }

    void issued(String token) {
        issued.add(requireNonNull(token, "token is null"));
    }

    /** Records every rule {@code request} breaks. */
    void inspect(HttpRequest request) {
        String where = request.method() + " " + request.path();
        List<HeaderViolation> found = new ArrayList<>();
        boolean reconciler = false;
        boolean proxy = false;
        for (String authorization : request.headers().getOrDefault("authorization", List.of())) {
            String token = authorization.strip();
            if (!token.toLowerCase(Locale.ROOT).startsWith(BEARER)
                    || !issued.contains(token.substring(BEARER.length()).strip())) {
                found.add(new HeaderViolation(where, "Authorization", "not a token this cluster issued"));
            } else {
                String bearer = token.substring(BEARER.length()).strip();
                reconciler |= bearer.equals(reconcilerToken);
                proxy |= bearer.equals(proxyToken);
            }
        }
        for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
            String name = header.getKey();
            if (name.equals("cookie")) {
                found.add(new HeaderViolation(where, "Cookie", "a client's cookie sent on"));
            } else if (name.startsWith("x-forwarded-") || name.equals("forwarded") || name.equals("x-real-ip")) {
                found.add(new HeaderViolation(where, name, "a client-controlled origin header"));
            } else if (name.startsWith("x-remote-")) {
                found.add(new HeaderViolation(where, name, "request-header authentication"));
            } else if (name.startsWith("impersonate-")) {
                if (reconciler) {
                    found.add(new HeaderViolation(where, name, "impersonation with the reconciler's token"));
                }
                if (!IMPERSONATION_SET_BY_KLAVE.contains(name)) {
                    found.add(new HeaderViolation(where, name, "an impersonation header Klave never sets"));
                }
            }
        }
        if (proxy && !request.headers().containsKey("impersonate-user")
                && !(request.method().equals("GET") && request.path().equals("/api"))) {
            found.add(new HeaderViolation(where, "Authorization", "the proxy's token without impersonating anyone"));
        }
        for (String user : request.headers().getOrDefault("impersonate-user", List.of())) {
            if (!IMPERSONATED_USER.matcher(user).matches()) {
                found.add(new HeaderViolation(where, "impersonate-user",
                        "not user:<login> or bot:<login> (got '" + user + "')"));
            }
        }
        if (!found.isEmpty()) {
            synchronized (violations) {
                violations.addAll(found);
            }
        }
    }

    List<HeaderViolation> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    /** Returns what was recorded and forgets it, for a test that sends a forbidden header on purpose. */
    List<HeaderViolation> take() {
        synchronized (violations) {
            List<HeaderViolation> taken = List.copyOf(violations);
            violations.clear();
            return taken;
        }
    }
}
