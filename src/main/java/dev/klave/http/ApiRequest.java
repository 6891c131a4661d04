package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an endpoint sees of a request: no Vert.x types, the body already read within its limit,
 * the client address already resolved through the trusted proxies.
 */
public final class ApiRequest {
    private final String method;
    private final String path;
    private final Map<String, String> pathParameters;
    private final Map<String, List<String>> query;
    private final Map<String, List<String>> headers;
    private final byte[] body;
    private final InetAddress clientAddress;
    private final Optional<Principal> principal;

    public ApiRequest(String method, String path, Map<String, String> pathParameters,
            Map<String, List<String>> query, Map<String, List<String>> headers, byte[] body,
            InetAddress clientAddress, Optional<Principal> principal) {
        this.method = requireNonNull(method, "method is null");
        this.path = requireNonNull(path, "path is null");
        this.pathParameters = Map.copyOf(requireNonNull(pathParameters, "pathParameters is null"));
        this.query = Map.copyOf(requireNonNull(query, "query is null"));
        TreeMap<String, List<String>> caseless = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        requireNonNull(headers, "headers is null").forEach((name, values) -> caseless.put(name, List.copyOf(values)));
        this.headers = caseless;
        this.body = requireNonNull(body, "body is null").clone();
        this.clientAddress = requireNonNull(clientAddress, "clientAddress is null");
        this.principal = requireNonNull(principal, "principal is null");
    }

    /** The same request, now known to come from {@code caller}. */
    ApiRequest authenticatedAs(Principal caller) {
        return new ApiRequest(method, path, pathParameters, query, headers, body, clientAddress,
                Optional.of(caller));
    }

    /** The signed-in caller; only routes with {@link Access#SESSION} or {@link Access#ADMIN} have one. */
    public Principal principal() {
        return principal.orElseThrow(() -> new IllegalStateException("route " + path + " is anonymous"));
    }

    /** Every value of a header, matched without regard to case. */
    public List<String> headers(String name) {
        return headers.getOrDefault(name, List.of());
    }

    public String method() {
        return method;
    }

    public String path() {
        return path;
    }

    /** The value of {@code {name}} in the route's template. */
    public String pathParameter(String name) {
        String value = pathParameters.get(name);
        if (value == null) {
            throw new IllegalArgumentException("the route has no parameter " + name);
        }
        return value;
    }

    /** The first value of a query parameter. */
    public Optional<String> queryParameter(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /** The first value of a header, matched without regard to case. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    public byte[] body() {
        return body.clone();
    }

    /** The body as {@code type}, read strictly; see {@link Json#read}. */
    public <T> T json(Class<T> type) {
        return Json.read(body, type);
    }

    /** The client: the socket peer, or the forwarded address when the peer is a trusted proxy. */
    public InetAddress clientAddress() {
        return clientAddress;
    }
}
