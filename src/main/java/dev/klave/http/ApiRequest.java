package dev.klave.http;

import static java.util.Objects.requireNonNull;

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
    private final Caller caller;
    private final Map<String, List<String>> form;

    public ApiRequest(String method, String path, Map<String, String> pathParameters,
            Map<String, List<String>> query, Map<String, List<String>> headers, byte[] body,
            InetAddress clientAddress, Caller caller) {
        this(method, path, pathParameters, query, headers, body, clientAddress, caller, Map.of());
    }

    private ApiRequest(String method, String path, Map<String, String> pathParameters,
            Map<String, List<String>> query, Map<String, List<String>> headers, byte[] body,
            InetAddress clientAddress, Caller caller, Map<String, List<String>> form) {
        this.method = requireNonNull(method, "method is null");
        this.path = requireNonNull(path, "path is null");
        this.pathParameters = Map.copyOf(requireNonNull(pathParameters, "pathParameters is null"));
        this.query = Map.copyOf(requireNonNull(query, "query is null"));
        TreeMap<String, List<String>> caseless = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        requireNonNull(headers, "headers is null").forEach((name, values) -> caseless.put(name, List.copyOf(values)));
        this.headers = caseless;
        this.body = requireNonNull(body, "body is null").clone();
        this.clientAddress = requireNonNull(clientAddress, "clientAddress is null");
        this.caller = requireNonNull(caller, "caller is null");
        this.form = Map.copyOf(requireNonNull(form, "form is null"));
    }

    /** The same request, now known to come from {@code who}. */
    ApiRequest authenticatedAs(Caller who) {
        return new ApiRequest(method, path, pathParameters, query, headers, body, clientAddress, who, form);
    }

    /** The same request with its form-encoded body decoded ({@link BodyType#FORM}). */
    ApiRequest withForm(Map<String, List<String>> fields) {
        return new ApiRequest(method, path, pathParameters, query, headers, body, clientAddress, caller, fields);
    }

    public Caller caller() {
        return caller;
    }

    /** The signed-in person; only routes with {@link Access#SESSION} or {@link Access#ADMIN} have one. */
    public Caller.Session session() {
        if (caller instanceof Caller.Session session) {
            return session;
        }
        throw new IllegalStateException("route " + path + " has no session caller");
    }

    /** The first value of a field of a form-encoded body; routes of {@link BodyType#FORM} only. */
    public Optional<String> formField(String name) {
        List<String> values = form.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /** Every value of a field of a form-encoded body (RFC 6749 §3.1 refuses repeated parameters). */
    public List<String> formFields(String name) {
        return form.getOrDefault(name, List.of());
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

    /** The names of the query parameters present. */
    public java.util.Set<String> queryNames() {
        return query.keySet();
    }

    /**
     * Refuses a query parameter the route does not read (issue 32: a filter that is ignored
     * silently shows the wrong rows as if they were the right ones).
     *
     * @throws dev.klave.messages.Refusal 400 naming the first unknown parameter
     */
    public void refuseUnknownQuery(java.util.Set<String> known) {
        query.keySet().stream().filter(name -> !known.contains(name)).sorted().findFirst().ifPresent(name -> {
            throw dev.klave.messages.Message.QUERY_PARAMETER_UNKNOWN.refusal(dev.klave.messages.Untrusted.text(name));
        });
    }

    /** Every value of a query parameter, in order (a parameter OAuth forbids repeating, RFC 6749 §3.1). */
    public List<String> queryParameters(String name) {
        return List.copyOf(query.getOrDefault(name, List.of()));
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
