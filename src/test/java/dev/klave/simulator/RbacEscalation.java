package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * RBAC's escalation prevention (pkg/registry/rbac): a Role or ClusterRole may only be written by
 * someone who holds every permission in it or may {@code escalate}; a binding only by someone who
 * holds the referenced role's permissions or may {@code bind} it. This is what keeps a reconciler
 * honest: its own grants must cover what it hands out.
 */
final class RbacEscalation {
    private final RbacAuthorizer authorizer;
    private final ObjectStore store;

    RbacEscalation(RbacAuthorizer authorizer, ObjectStore store) {
        this.authorizer = requireNonNull(authorizer, "authorizer is null");
        this.store = requireNonNull(store, "store is null");
    }

    /** Throws 403 when writing this RBAC object would grant more than the user holds. */
    void check(UserInfo user, ResourceType type, String namespace, ObjectNode object) {
        String name = Json.string(object, "metadata", "name").orElse("");
        switch (type.kind()) {
            case "Role", "ClusterRole" -> {
                if (allowed(user, "escalate", type.plural(), namespace, name)) {
                    return;
                }
                refuseMissing(user, type, name, missing(user, namespace, object.path("rules")));
            }
            case "RoleBinding", "ClusterRoleBinding" -> {
                String roleKind = Json.string(object, "roleRef", "kind").orElse("");
                String roleName = Json.string(object, "roleRef", "name").orElse("");
                String rolePlural = roleKind.equals("Role") ? "roles" : "clusterroles";
                if (allowed(user, "bind", rolePlural, namespace, roleName)) {
                    return;
                }
                Optional<ObjectNode> role = roleKind.equals("Role")
                        ? store.get(ResourceCatalog.ROLES, namespace, roleName)
                        : store.get(ResourceCatalog.CLUSTER_ROLES, "", roleName);
                if (role.isEmpty()) {
                    throw ApiException.forbidden(type.group(), type.plural(), name, "user \"" + user.name()
                            + "\" (groups=" + quoted(user.groups()) + ") is attempting to grant RBAC permissions not currently held:\n"
                            + rolePlural.substring(0, rolePlural.length() - 1) + "." + RbacAuthorizer.RBAC_GROUP
                            + " \"" + roleName + "\" not found");
                }
                refuseMissing(user, type, name, missing(user, namespace, role.get().path("rules")));
            }
            default -> {
            }
        }
    }

    private boolean allowed(UserInfo user, String verb, String resource, String namespace, String name) {
        return authorizer.authorize(AuthorizationAttributes.resource(user, verb, RbacAuthorizer.RBAC_GROUP, resource, "",
                namespace, name)).allowed();
    }

    /** The rules (one verb, group, resource and name each) the user does not hold. */
    private List<String> missing(UserInfo user, String namespace, JsonNode rules) {
        List<String> missing = new ArrayList<>();
        for (JsonNode rule : rules) {
            for (JsonNode verb : rule.path("verbs")) {
                for (JsonNode url : rule.path("nonResourceURLs")) {
                    if (!authorizer.authorize(AuthorizationAttributes.nonResource(user, verb.asText(), url.asText())).allowed()) {
                        missing.add("{NonResourceURLs:[\"" + url.asText() + "\"], Verbs:[\"" + verb.asText() + "\"]}");
                    }
                }
                for (JsonNode group : rule.path("apiGroups")) {
                    for (JsonNode resource : rule.path("resources")) {
                        List<String> names = new ArrayList<>();
                        rule.path("resourceNames").forEach(resourceName -> names.add(resourceName.asText()));
                        for (String resourceName : names.isEmpty() ? List.of("") : names) {
                            if (!holds(user, namespace, verb.asText(), group.asText(), resource.asText(), resourceName)) {
                                missing.add("{APIGroups:[\"" + group.asText() + "\"], Resources:[\"" + resource.asText() + "\"]"
                                        + (resourceName.isEmpty() ? "" : ", ResourceNames:[\"" + resourceName + "\"]")
                                        + ", Verbs:[\"" + verb.asText() + "\"]}");
                            }
                        }
                    }
                }
            }
        }
        return missing;
    }

    private boolean holds(UserInfo user, String namespace, String verb, String group, String resource, String name) {
        int slash = resource.indexOf('/');
        String main = slash < 0 ? resource : resource.substring(0, slash);
        String subresource = slash < 0 ? "" : resource.substring(slash + 1);
        return authorizer.authorize(AuthorizationAttributes.resource(user, verb, group, main, subresource, namespace, name))
                .allowed();
    }

    private static void refuseMissing(UserInfo user, ResourceType type, String name, List<String> missing) {
        if (missing.isEmpty()) {
            return;
        }
        throw ApiException.forbidden(type.group(), type.plural(), name, "user \"" + user.name() + "\" (groups="
                + quoted(user.groups()) + ") is attempting to grant RBAC permissions not currently held:\n"
                + String.join("\n", missing));
    }

    private static String quoted(List<String> values) {
        return values.stream().map(value -> "\"" + value + "\"").collect(Collectors.joining(" ", "[", "]"));
    }
}
