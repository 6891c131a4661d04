package dev.klave.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.kube.ClusterPath;
import java.util.Collection;

/** The Kubernetes objects the reconciler writes, as JSON. */
final class RbacObjects {
    static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /**
     * Marks the bindings the reconciler owns. The bootstrap's own objects carry only the
     * managed-by label, so the reconciler never deletes the bindings that let Klave in.
     */
    static final String COMPONENT = "app.kubernetes.io/component";
    static final String GRANT_BINDING = "grant-binding";
    static final String MANAGED_SELECTOR = MANAGED_BY + "=klave," + COMPONENT + "=" + GRANT_BINDING;
    static final String IMPERSONATION_ROLE = "klave-impersonation";
    static final String RBAC = "rbac.authorization.k8s.io";
    static final ClusterPath IMPERSONATION_ROLE_PATH = ClusterPath.of("apis", RBAC, "v1", "clusterroles",
            IMPERSONATION_ROLE);
    static final ClusterPath CLUSTER_ROLE_BINDINGS = ClusterPath.of("apis", RBAC, "v1", "clusterrolebindings");
    static final ClusterPath ROLE_BINDINGS = ClusterPath.of("apis", RBAC, "v1", "rolebindings");

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RbacObjects() {}

    static ClusterPath roleBindingsIn(String namespace) {
        return ClusterPath.of("apis", RBAC, "v1", "namespaces", namespace, "rolebindings");
    }

    /**
     * The rules that let the proxy impersonate exactly the desired users, groups and uids
     * (Kubernetes impersonation: verb {@code impersonate}, resourceNames = the allowed names).
     */
    static ArrayNode impersonationRules(DesiredRbac desired) {
        ArrayNode rules = MAPPER.createArrayNode();
        addRule(rules, "", "users", desired.users());
        addRule(rules, "", "groups", desired.groups());
        addRule(rules, "authentication.k8s.io", "uids", desired.uids());
        return rules;
    }

    private static void addRule(ArrayNode rules, String apiGroup, String resource, Collection<String> names) {
        if (names.isEmpty()) {
            return;
        }
        ObjectNode rule = rules.addObject();
        rule.putArray("apiGroups").add(apiGroup);
        rule.putArray("resources").add(resource);
        rule.putArray("verbs").add("impersonate");
        ArrayNode resourceNames = rule.putArray("resourceNames");
        names.forEach(resourceNames::add);
    }

    static ObjectNode binding(DesiredRbac.Binding binding) {
        boolean clusterWide = binding.scope().wholeCluster();
        ObjectNode object = MAPPER.createObjectNode();
        object.put("apiVersion", RBAC + "/v1");
        object.put("kind", clusterWide ? "ClusterRoleBinding" : "RoleBinding");
        ObjectNode metadata = object.putObject("metadata");
        metadata.put("name", binding.name());
        if (!clusterWide) {
            metadata.put("namespace", binding.scope().value());
        }
        metadata.putObject("labels").put(MANAGED_BY, "klave").put(COMPONENT, GRANT_BINDING);
        ObjectNode roleRef = object.putObject("roleRef");
        roleRef.put("apiGroup", RBAC);
        roleRef.put("kind", "ClusterRole");
        roleRef.put("name", binding.tier().clusterRole());
        ObjectNode subject = object.putArray("subjects").addObject();
        subject.put("apiGroup", RBAC);
        subject.put("kind", "Group");
        subject.put("name", binding.group());
        return object;
    }

    /**
     * Whether a role's rules as the API server answers them say what {@code desired} says. The
     * server answers a role without rules as {@code rules: null} (protobuf keeps no empty list),
     * which says the same as Klave's {@code []}: rewriting it would write to every cluster on every
     * pass and its resourceVersion would never settle.
     */
    static boolean sameRules(JsonNode existing, ArrayNode desired) {
        boolean none = existing == null || existing.isNull() || existing.isMissingNode()
                || existing.isArray() && existing.isEmpty();
        return none ? desired.isEmpty() : existing.equals(desired);
    }

    /** Whether an existing binding says what {@code desired} says (roleRef and the one group). */
    static boolean same(JsonNode existing, ObjectNode desired) {
        return existing.path("roleRef").equals(desired.path("roleRef"))
                && existing.path("subjects").equals(desired.path("subjects"));
    }

    static String key(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        return metadata.path("namespace").asText("") + "/" + metadata.path("name").asText();
    }
}
