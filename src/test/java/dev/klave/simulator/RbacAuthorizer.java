package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * RBAC as kube-apiserver evaluates it (plugin/pkg/auth/authorizer/rbac): the union of the rules
 * of every ClusterRoleBinding, and of every RoleBinding in the request's namespace, whose
 * subjects include the user. Members of {@code system:masters} are allowed everything before
 * RBAC is consulted, as the apiserver's privileged-group authorizer does.
 */
final class RbacAuthorizer {
    static final String RBAC_GROUP = "rbac.authorization.k8s.io";

    private final ObjectStore store;

    /** Allowed or not, and why not when a binding points at a missing role. */
    record Decision(boolean allowed, String reason) {
    }

    RbacAuthorizer(ObjectStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    Decision authorize(AuthorizationAttributes attributes) {
        if (attributes.user().groups().contains("system:masters")) {
            return new Decision(true, "");
        }
        List<String> errors = new ArrayList<>();
        for (ObjectNode binding : store.list(ResourceCatalog.CLUSTER_ROLE_BINDINGS, Optional.empty()).items()) {
            if (appliesTo(binding, attributes.user(), "") && anyRuleAllows(rulesOf(binding, "", errors), attributes)) {
                return new Decision(true, "");
            }
        }
        if (!attributes.namespace().isEmpty()) {
            for (ObjectNode binding : store.list(ResourceCatalog.ROLE_BINDINGS, Optional.of(attributes.namespace())).items()) {
                if (appliesTo(binding, attributes.user(), attributes.namespace())
                        && anyRuleAllows(rulesOf(binding, attributes.namespace(), errors), attributes)) {
                    return new Decision(true, "");
                }
            }
        }
        if (errors.isEmpty()) {
            return new Decision(false, "");
        }
        String joined = errors.size() == 1 ? errors.getFirst() : "[" + String.join(", ", errors) + "]";
        return new Decision(false, "RBAC: " + joined);
    }

    static boolean ruleAllows(JsonNode rule, AuthorizationAttributes attributes) {
        if (!matches(rule.path("verbs"), attributes.verb())) {
            return false;
        }
        if (!attributes.resourceRequest()) {
            return nonResourceUrlMatches(rule.path("nonResourceURLs"), attributes.path());
        }
        String combined = attributes.subresource().isEmpty()
                ? attributes.resource() : attributes.resource() + "/" + attributes.subresource();
        return matches(rule.path("apiGroups"), attributes.apiGroup())
                && resourceMatches(rule.path("resources"), combined, attributes.subresource())
                && resourceNameMatches(rule.path("resourceNames"), attributes.name());
    }

    private boolean anyRuleAllows(List<JsonNode> rules, AuthorizationAttributes attributes) {
        return rules.stream().anyMatch(rule -> ruleAllows(rule, attributes));
    }

    private List<JsonNode> rulesOf(ObjectNode binding, String namespace, List<String> errors) {
        String kind = Json.string(binding, "roleRef", "kind").orElse("");
        String name = Json.string(binding, "roleRef", "name").orElse("");
        Optional<ObjectNode> role = kind.equals("Role")
                ? store.get(ResourceCatalog.ROLES, namespace, name)
                : store.get(ResourceCatalog.CLUSTER_ROLES, "", name);
        if (role.isEmpty()) {
            errors.add((kind.equals("Role") ? "role" : "clusterrole") + "." + RBAC_GROUP + " \"" + name + "\" not found");
            return List.of();
        }
        List<JsonNode> rules = new ArrayList<>();
        role.get().path("rules").forEach(rules::add);
        return rules;
    }

    /** Subject matching of rbac/v1 helpers: User by name, Group by membership, ServiceAccount by username. */
    static boolean appliesTo(JsonNode binding, UserInfo user, String bindingNamespace) {
        for (JsonNode subject : binding.path("subjects")) {
            String name = subject.path("name").asText();
            switch (subject.path("kind").asText()) {
                case "User" -> {
                    if (user.name().equals(name)) {
                        return true;
                    }
                }
                case "Group" -> {
                    if (user.groups().contains(name)) {
                        return true;
                    }
                }
                case "ServiceAccount" -> {
                    String namespace = subject.path("namespace").asText(bindingNamespace);
                    if (namespace.isEmpty()) {
                        namespace = bindingNamespace;
                    }
                    if (!namespace.isEmpty() && user.name().equals("system:serviceaccount:" + namespace + ":" + name)) {
                        return true;
                    }
                }
                default -> {
                }
            }
        }
        return false;
    }

    private static boolean matches(JsonNode values, String wanted) {
        for (JsonNode value : values) {
            if (value.asText().equals("*") || value.asText().equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    private static boolean resourceMatches(JsonNode resources, String combined, String subresource) {
        for (JsonNode value : resources) {
            String resource = value.asText();
            if (resource.equals("*") || resource.equals(combined)) {
                return true;
            }
            // "*/scale" grants a subresource of every resource.
            if (!subresource.isEmpty() && resource.equals("*/" + subresource)) {
                return true;
            }
        }
        return false;
    }

    private static boolean resourceNameMatches(JsonNode resourceNames, String name) {
        if (resourceNames.isEmpty()) {
            return true;
        }
        for (JsonNode value : resourceNames) {
            if (value.asText().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean nonResourceUrlMatches(JsonNode urls, String path) {
        for (JsonNode value : urls) {
            String url = value.asText();
            if (url.equals("*") || url.equals(path)
                    || (url.endsWith("*") && path.startsWith(url.substring(0, url.length() - 1)))) {
                return true;
            }
        }
        return false;
    }
}
