package dev.klave.kube;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The HTTP methods the Kubernetes API serves; a request with any other never reaches a cluster.
 * Methods are case-sensitive (RFC 9110 §9.1): {@code get} is not {@code GET}, and is refused.
 */
public enum Method {
    GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS;

    /** The {@code Allow} header of a 405 (RFC 9110 §15.5.6): every method, in this order. */
    public static final String ALLOW = Arrays.stream(values()).map(Method::name).collect(Collectors.joining(", "));

    /** The method of this name, exactly as a client sent it; empty for any other text. */
    public static Optional<Method> parse(String name) {
        for (Method method : values()) {
            if (method.name().equals(name)) {
                return Optional.of(method);
            }
        }
        return Optional.empty();
    }

    /**
     * The verb the API server's authorizer sees for a resource request (its RequestInfo): a
     * {@code GET} of one object is {@code get}, of a collection {@code list}, with {@code watch}
     * a {@code watch}; a {@code DELETE} of a collection is {@code deletecollection}.
     */
    public String verb(boolean named, boolean watch) {
        return switch (this) {
            case GET, HEAD -> watch ? "watch" : named ? "get" : "list";
            case POST -> "create";
            case PUT -> "update";
            case PATCH -> "patch";
            case DELETE -> named ? "delete" : "deletecollection";
            case OPTIONS -> "options";
        };
    }

    /** The verb of a request that names no resource (discovery, {@code /version}): the method in lower case. */
    public String plainVerb() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
