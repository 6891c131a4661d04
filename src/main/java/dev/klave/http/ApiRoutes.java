package dev.klave.http;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The API's route table. Routes live under mounted prefixes ({@code /api}, {@code /v1}; later
 * {@code /mcp}, {@code /.well-known}, {@code /oauth}), each with a default {@link RoutePolicy} that
 * a route may replace. Templates are literal segments and {@code {name}} parameters, matched
 * segment by segment against the raw path; a path that matches a template under another method
 * is told which methods it has ({@code Allow}, spec 1 §4); a path under a mount that matches no
 * template is 404 in the mount's error format.
 *
 * <p>Every endpoint that is not a {@code GET} may change who has access to what; when one
 * completes without a refusal, its state change has committed and {@code afterChange} runs, so
 * this replica's open streams are checked against it at once (see {@code OpenCalls}).
 */
public final class ApiRoutes {
    private final List<Route> routes = new ArrayList<>();
    private final Map<String, RoutePolicy> mounts = new LinkedHashMap<>();
    private final Runnable afterChange;

    /** A table with the two mounts of spec 1 §4: {@code /api} and {@code /v1} (CI and forge). */
    public ApiRoutes(Runnable afterChange) {
        this.afterChange = requireNonNull(afterChange, "afterChange is null");
        mount("/api", RoutePolicy.API);
        mount("/v1", RoutePolicy.MACHINE);
    }

    /**
     * Serves every path equal to {@code prefix} or under {@code prefix/}, with {@code defaults}
     * for the routes that name no policy of their own.
     */
    public ApiRoutes mount(String prefix, RoutePolicy defaults) {
        if (!prefix.startsWith("/") || prefix.endsWith("/") || prefix.length() < 2) {
            throw new IllegalArgumentException("a mount is /name without a trailing slash: " + prefix);
        }
        if (mounts.putIfAbsent(prefix, requireNonNull(defaults, "defaults is null")) != null) {
            throw new IllegalArgumentException("mounted twice: " + prefix);
        }
        return this;
    }

    /** The default policy of the mount {@code path} falls under, if any. */
    public Optional<RoutePolicy> mountOf(String path) {
        for (Map.Entry<String, RoutePolicy> mount : mounts.entrySet()) {
            String prefix = mount.getKey();
            if (path.equals(prefix) || (path.startsWith(prefix) && path.charAt(prefix.length()) == '/')) {
                return Optional.of(mount.getValue());
            }
        }
        return Optional.empty();
    }

    public ApiRoutes get(String template, Access access, Endpoint endpoint) {
        return add("GET", template, access, endpoint);
    }

    public ApiRoutes post(String template, Access access, Endpoint endpoint) {
        return add("POST", template, access, endpoint);
    }

    public ApiRoutes patch(String template, Access access, Endpoint endpoint) {
        return add("PATCH", template, access, endpoint);
    }

    public ApiRoutes delete(String template, Access access, Endpoint endpoint) {
        return add("DELETE", template, access, endpoint);
    }

    public ApiRoutes add(String method, String template, Access access, Endpoint endpoint) {
        RoutePolicy defaults = mountOf(template).orElseThrow(() -> new IllegalArgumentException(
                "no mount serves " + template));
        return add(method, template, access, defaults, endpoint);
    }

    /** A route with a policy of its own, e.g. a larger body limit for a webhook. */
    public ApiRoutes add(String method, String template, Access access, RoutePolicy policy, Endpoint endpoint) {
        if (mountOf(template).isEmpty()) {
            throw new IllegalArgumentException("no mount serves " + template);
        }
        Route route = new Route(method, Template.parse(template), access, requireNonNull(policy, "policy is null"),
                method.equals("GET") ? endpoint : announcing(endpoint));
        for (Route existing : routes) {
            if (existing.method.equals(method) && existing.template.equals(route.template)) {
                throw new IllegalArgumentException("route registered twice: " + method + " " + template);
            }
        }
        routes.add(route);
        return this;
    }

    private Endpoint announcing(Endpoint endpoint) {
        requireNonNull(endpoint, "endpoint is null");
        return request -> {
            ApiResponse response = endpoint.handle(request);
            afterChange.run();
            return response;
        };
    }

    /** What the table says about a request. */
    public sealed interface Match {}

    public record Found(Access access, RoutePolicy policy, Endpoint endpoint, Map<String, String> parameters)
            implements Match {}

    /** The path exists under other methods; {@code policy} is that of the first of them. */
    public record WrongMethod(Set<String> allowed, RoutePolicy policy) implements Match {}

    /** Nothing at this path; {@code policy} is the mount's, for the error format. */
    public record Unknown(RoutePolicy policy) implements Match {}

    public Match match(String method, String path) {
        String[] segments = Template.split(path);
        Set<String> allowed = new LinkedHashSet<>();
        RoutePolicy first = null;
        for (Route route : routes) {
            Optional<Map<String, String>> parameters = route.template.match(segments);
            if (parameters.isEmpty()) {
                continue;
            }
            if (route.method.equals(method)) {
                return new Found(route.access, route.policy, route.endpoint, parameters.get());
            }
            allowed.add(route.method);
            first = first == null ? route.policy : first;
        }
        if (first != null) {
            return new WrongMethod(allowed, first);
        }
        return new Unknown(mountOf(path).orElse(RoutePolicy.API));
    }

    private record Route(String method, Template template, Access access, RoutePolicy policy, Endpoint endpoint) {
        Route {
            requireNonNull(method, "method is null");
            requireNonNull(template, "template is null");
            requireNonNull(access, "access is null");
            requireNonNull(policy, "policy is null");
            requireNonNull(endpoint, "endpoint is null");
        }
    }

    private record Template(List<String> segments) {
        static Template parse(String template) {
            return new Template(List.of(split(template)));
        }

        static String[] split(String path) {
            // The leading slash yields one empty first element; -1 keeps trailing empty segments
            // so that "/api/me/" does not match "/api/me".
            String[] parts = path.split("/", -1);
            String[] segments = new String[parts.length - 1];
            System.arraycopy(parts, 1, segments, 0, segments.length);
            return segments;
        }

        Optional<Map<String, String>> match(String[] path) {
            if (path.length != segments.size()) {
                return Optional.empty();
            }
            Map<String, String> parameters = new LinkedHashMap<>();
            for (int i = 0; i < path.length; i++) {
                String expected = segments.get(i);
                if (expected.startsWith("{") && expected.endsWith("}")) {
                    if (path[i].isEmpty()) {
                        return Optional.empty();
                    }
                    parameters.put(expected.substring(1, expected.length() - 1), path[i]);
                } else if (!expected.equals(path[i])) {
                    return Optional.empty();
                }
            }
            return Optional.of(parameters);
        }
    }
}
