package dev.klave.http;

import static java.util.Objects.requireNonNull;

/**
 * What serves each path: the one table that the server's dispatch and its refusals before any route
 * both read, so a request the decoder refused is answered in the form the path's own handler would
 * have used — a Kubernetes {@code Status} under the proxy, the mount's error format under
 * {@link ApiRoutes}' mounts ({@code {"error"}} under {@code /api}, {@code /v1} and {@code /mcp}, the
 * OAuth shape under {@code /oauth}), plain text for the health checks and the web interface.
 */
public final class EdgeMap {
    /** The proxy's prefix (spec 1 §4 "Proxy"): {@code /clusters/<id>/…}. */
    public static final String CLUSTERS = "/clusters";

    /** Where a path goes. */
    sealed interface Destination {}

    record Liveness() implements Destination {}

    record Readiness() implements Destination {}

    /** Under one of the API's mounts; {@code mount} is that mount's default policy. */
    record Api(RoutePolicy mount) implements Destination {
        Api {
            requireNonNull(mount, "mount is null");
        }
    }

    record Proxy() implements Destination {}

    record Web() implements Destination {}

    private static final Destination LIVENESS = new Liveness();
    private static final Destination READINESS = new Readiness();
    private static final Destination PROXY = new Proxy();
    private static final Destination WEB = new Web();

    private final ApiRoutes routes;

    EdgeMap(ApiRoutes routes) {
        this.routes = requireNonNull(routes, "routes is null");
    }

    /** Whether {@code path} is the proxy's: {@code /clusters} or under {@code /clusters/}. */
    public static boolean proxies(String path) {
        return path.equals(CLUSTERS) || (path.startsWith(CLUSTERS) && path.length() > CLUSTERS.length()
                && path.charAt(CLUSTERS.length()) == '/');
    }

    Destination of(String path) {
        if (path.equals("/healthz")) {
            return LIVENESS;
        }
        if (path.equals("/readyz")) {
            return READINESS;
        }
        var mount = routes.mountOf(path);
        if (mount.isPresent()) {
            return new Api(mount.get());
        }
        return proxies(path) ? PROXY : WEB;
    }
}
