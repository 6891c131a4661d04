package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a request asks for, parsed from its path the way the apiserver's RequestInfoFactory does
 * (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go): resource requests under /api and /apis
 * carry a verb derived from the method; everything else is a non-resource path.
 */
record RequestInfo(boolean resourceRequest, String path, String verb, String apiGroup, String apiVersion,
        String namespace, String resource, String subresource, String name) {
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    RequestInfo {
        requireNonNull(path, "path is null");
        requireNonNull(verb, "verb is null");
        requireNonNull(apiGroup, "apiGroup is null");
        requireNonNull(apiVersion, "apiVersion is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(resource, "resource is null");
        requireNonNull(subresource, "subresource is null");
        requireNonNull(name, "name is null");
    }

    static RequestInfo parse(HttpRequest request) {
        String path = request.path();
        List<String> parts = new ArrayList<>(Arrays.stream(path.split("/")).filter(part -> !part.isEmpty()).toList());
        RequestInfo nonResource = new RequestInfo(false, path, request.method().toLowerCase(Locale.ROOT), "", "", "", "", "", "");
        if (parts.isEmpty() || !(parts.getFirst().equals("api") || parts.getFirst().equals("apis"))) {
            return nonResource;
        }
        String group = "";
        if (parts.getFirst().equals("apis")) {
            if (parts.size() < 4) {
                return nonResource;
            }
            group = parts.get(1);
            parts = parts.subList(2, parts.size());
        } else {
            if (parts.size() < 3) {
                return nonResource;
            }
            parts = parts.subList(1, parts.size());
        }
        String version = parts.getFirst();
        parts = parts.subList(1, parts.size());
        boolean watchPrefix = false;
        if (parts.getFirst().equals("watch")) {
            watchPrefix = true;
            parts = parts.subList(1, parts.size());
        }
        String namespace = "";
        if (parts.getFirst().equals("namespaces") && parts.size() > 1) {
            namespace = parts.get(1);
            if (parts.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(parts.get(2))) {
                parts = parts.subList(2, parts.size());
            }
        }
        String resource = parts.getFirst();
        String name = parts.size() >= 2 ? parts.get(1) : "";
        String subresource = parts.size() >= 3 ? parts.get(2) : "";
        String verb = verb(request, name, watchPrefix);
        return new RequestInfo(true, path, verb, group, version, namespace, resource, subresource, name);
    }

    private static String verb(HttpRequest request, String name, boolean watchPrefix) {
        boolean watch = watchPrefix || request.flag("watch");
        return switch (request.method()) {
            case "POST" -> "create";
            case "GET", "HEAD" -> watch ? "watch" : name.isEmpty() ? "list" : "get";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
            default -> "";
        };
    }

    AuthorizationAttributes attributes(UserInfo user) {
        if (!resourceRequest) {
            return AuthorizationAttributes.nonResource(user, verb, path);
        }
        return new AuthorizationAttributes(user, verb, true, apiGroup, apiVersion, resource, subresource, namespace, name, "");
    }
}
