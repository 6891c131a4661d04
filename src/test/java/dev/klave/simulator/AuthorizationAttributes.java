package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

/**
 * What is asked of the authorizer (k8s.io/apiserver authorizer.Attributes): a resource request
 * names verb, group, resource, subresource, namespace and name; a non-resource one a path.
 */
record AuthorizationAttributes(UserInfo user, String verb, boolean resourceRequest, String apiGroup,
        String apiVersion, String resource, String subresource, String namespace, String name, String path) {
    AuthorizationAttributes {
        requireNonNull(user, "user is null");
        requireNonNull(verb, "verb is null");
        requireNonNull(apiGroup, "apiGroup is null");
        requireNonNull(apiVersion, "apiVersion is null");
        requireNonNull(resource, "resource is null");
        requireNonNull(subresource, "subresource is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(name, "name is null");
        requireNonNull(path, "path is null");
    }

    static AuthorizationAttributes resource(UserInfo user, String verb, String apiGroup, String resource,
            String subresource, String namespace, String name) {
        return new AuthorizationAttributes(user, verb, true, apiGroup, "", resource, subresource, namespace, name, "");
    }

    static AuthorizationAttributes nonResource(UserInfo user, String verb, String path) {
        return new AuthorizationAttributes(user, verb, false, "", "", "", "", "", "", path);
    }

    /** The apiserver's wording (endpoints/handlers/responsewriters.forbiddenMessage). */
    String forbiddenMessage() {
        if (!resourceRequest) {
            return "User \"" + user.name() + "\" cannot " + verb + " path \"" + path + "\"";
        }
        String combined = subresource.isEmpty() ? resource : resource + "/" + subresource;
        String scope = namespace.isEmpty() ? "at the cluster scope" : "in the namespace \"" + namespace + "\"";
        return "User \"" + user.name() + "\" cannot " + verb + " resource \"" + combined + "\" in API group \""
                + apiGroup + "\" " + scope;
    }

    ApiException forbidden(String reason) {
        String why = reason.isEmpty() ? forbiddenMessage() : forbiddenMessage() + ": " + reason;
        return ApiException.forbidden(apiGroup, resource, name, why);
    }
}
