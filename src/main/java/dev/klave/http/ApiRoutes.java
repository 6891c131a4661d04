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
 * The API's route table. Templates are literal segments and {@code {name}} parameters, matched
 * segment by segment against the raw path; a path that matches a template under another method
 * is told which methods it has ({@code Allow}, spec 1 §4).
 *
 * <p>Every endpoint that is not a {@code GET} may change who has access to what; when one
 * completes without a refusal, its state change has committed and {@code afterChange} runs, so
 * this replica's open streams are checked against it at once (see {@code OpenStreams}).
 */
public final class ApiRoutes {
    private final List<Route> routes = new ArrayList<>();
    private final Runnable afterChange;

    public ApiRoutes(Runnable afterChange) {
        this.afterChange = requireNonNull(afterChange, "afterChange is null");
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
        Route route = new Route(method, Template.parse(template), access,
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

    public record Found(Access access, Endpoint endpoint, Map<String, String> parameters) implements Match {}

    public record WrongMethod(Set<String> allowed) implements Match {}

    public record Unknown() implements Match {}

    public Match match(String method, String path) {
        String[] segments = Template.split(path);
        Set<String> allowed = new LinkedHashSet<>();
        for (Route route : routes) {
            Optional<Map<String, String>> parameters = route.template.match(segments);
            if (parameters.isEmpty()) {
                continue;
            }
            if (route.method.equals(method)) {
                return new Found(route.access, route.endpoint, parameters.get());
            }
            allowed.add(route.method);
        }
        return allowed.isEmpty() ? new Unknown() : new WrongMethod(allowed);
    }

    private record Route(String method, Template template, Access access, Endpoint endpoint) {
        Route {
            requireNonNull(method, "method is null");
            requireNonNull(template, "template is null");
            requireNonNull(access, "access is null");
            requireNonNull(endpoint, "endpoint is null");
        }
    }

    private record Template(List<String> segments) {
        static Template parse(String template) {
            if (!template.startsWith("/api/") && !template.startsWith("/v1/")) {
                throw new IllegalArgumentException("API routes live under /api/ or /v1/: " + template);
            }
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
