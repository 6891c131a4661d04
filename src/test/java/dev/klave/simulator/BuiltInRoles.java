package dev.klave.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The default ClusterRoles a fresh cluster has, flattened (the real view/edit/admin are
 * aggregated from labelled roles; the union is what matters to authorization). The rules follow
 * kube-apiserver v1.32's bootstrap policy for the resources people use daily.
 *
 * <p>As there, view, edit and admin name no custom resource: on a cluster, a CRD's kinds join them
 * only through a ClusterRole labelled {@code rbac.authorization.k8s.io/aggregate-to-view} (…-edit,
 * …-admin), which the simulator does not aggregate. So {@code example.com} widgets are reached by
 * cluster-admin's wildcard, by system:masters, or by a Role or ClusterRole that names them.
 */
final class BuiltInRoles {
    private static final List<String> READ = List.of("get", "list", "watch");
    private static final List<String> WRITE = List.of("create", "delete", "deletecollection", "patch", "update");
    private static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    private BuiltInRoles() {
    }

    static List<ObjectNode> clusterRoles() {
        return List.of(clusterAdmin(), admin(), edit(), view(), discovery(), basicUser());
    }

    static List<ObjectNode> clusterRoleBindings() {
        return List.of(
                binding("cluster-admin", "cluster-admin", "system:masters"),
                binding("system:discovery", "system:discovery", "system:authenticated"),
                binding("system:basic-user", "system:basic-user", "system:authenticated"));
    }

    private static ObjectNode clusterAdmin() {
        ObjectNode role = role("cluster-admin");
        ArrayNode rules = role.putArray("rules");
        rule(rules, List.of("*"), List.of("*"), List.of("*"));
        ObjectNode nonResource = rules.addObject();
        nonResource.putArray("nonResourceURLs").add("*");
        nonResource.putArray("verbs").add("*");
        return role;
    }

    private static ObjectNode view() {
        ObjectNode role = role("view");
        viewRules(role.putArray("rules"));
        return role;
    }

    private static ObjectNode edit() {
        ObjectNode role = role("edit");
        ArrayNode rules = role.putArray("rules");
        viewRules(rules);
        editRules(rules);
        return role;
    }

    private static ObjectNode admin() {
        ObjectNode role = role("admin");
        ArrayNode rules = role.putArray("rules");
        viewRules(rules);
        editRules(rules);
        rule(rules, List.of("authorization.k8s.io"), List.of("localsubjectaccessreviews"), List.of("create"));
        rule(rules, List.of(RbacAuthorizer.RBAC_GROUP), List.of("rolebindings", "roles"), ALL_VERBS);
        return role;
    }

    private static ObjectNode discovery() {
        ObjectNode role = role("system:discovery");
        ObjectNode rule = role.putArray("rules").addObject();
        ArrayNode urls = rule.putArray("nonResourceURLs");
        for (String url : List.of("/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi",
                "/openapi/*", "/readyz", "/version", "/version/")) {
            urls.add(url);
        }
        rule.putArray("verbs").add("get");
        return role;
    }

    /** Lets everyone ask what they may do and who they are (kubectl auth can-i, auth whoami). */
    private static ObjectNode basicUser() {
        ObjectNode role = role("system:basic-user");
        ArrayNode rules = role.putArray("rules");
        rule(rules, List.of("authorization.k8s.io"), List.of("selfsubjectaccessreviews", "selfsubjectrulesreviews"),
                List.of("create"));
        rule(rules, List.of("authentication.k8s.io"), List.of("selfsubjectreviews"), List.of("create"));
        return role;
    }

    private static void viewRules(ArrayNode rules) {
        rule(rules, List.of(""), List.of("configmaps", "endpoints", "persistentvolumeclaims",
                "persistentvolumeclaims/status", "pods", "replicationcontrollers", "replicationcontrollers/scale",
                "serviceaccounts", "services", "services/status"), READ);
        rule(rules, List.of(""), List.of("bindings", "events", "limitranges", "namespaces/status", "pods/log",
                "pods/status", "replicationcontrollers/status", "resourcequotas", "resourcequotas/status"), READ);
        rule(rules, List.of(""), List.of("namespaces"), READ);
        rule(rules, List.of("apps"), List.of("controllerrevisions", "daemonsets", "daemonsets/status", "deployments",
                "deployments/scale", "deployments/status", "replicasets", "replicasets/scale", "replicasets/status",
                "statefulsets", "statefulsets/scale", "statefulsets/status"), READ);
        rule(rules, List.of("autoscaling"), List.of("horizontalpodautoscalers", "horizontalpodautoscalers/status"), READ);
        rule(rules, List.of("batch"), List.of("cronjobs", "cronjobs/status", "jobs", "jobs/status"), READ);
        rule(rules, List.of("networking.k8s.io"), List.of("ingresses", "ingresses/status", "networkpolicies"), READ);
        rule(rules, List.of("policy"), List.of("poddisruptionbudgets", "poddisruptionbudgets/status"), READ);
        rule(rules, List.of("discovery.k8s.io"), List.of("endpointslices"), READ);
        // What metrics-server's system:aggregated-metrics-reader adds to view (aggregate-to-view).
        rule(rules, List.of("metrics.k8s.io"), List.of("pods", "nodes"), READ);
    }

    private static void editRules(ArrayNode rules) {
        rule(rules, List.of(""), List.of("pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "secrets",
                "services/proxy"), READ);
        rule(rules, List.of(""), List.of("serviceaccounts"), List.of("impersonate"));
        rule(rules, List.of(""), List.of("pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy"), WRITE);
        rule(rules, List.of(""), List.of("pods/eviction"), List.of("create"));
        rule(rules, List.of(""), List.of("configmaps", "events", "persistentvolumeclaims", "replicationcontrollers",
                "replicationcontrollers/scale", "secrets", "serviceaccounts", "services", "services/proxy"), WRITE);
        rule(rules, List.of(""), List.of("serviceaccounts/token"), List.of("create"));
        rule(rules, List.of("apps"), List.of("daemonsets", "deployments", "deployments/rollback", "deployments/scale",
                "replicasets", "replicasets/scale", "statefulsets", "statefulsets/scale"), WRITE);
        rule(rules, List.of("autoscaling"), List.of("horizontalpodautoscalers"), WRITE);
        rule(rules, List.of("batch"), List.of("cronjobs", "jobs"), WRITE);
        rule(rules, List.of("networking.k8s.io"), List.of("ingresses", "networkpolicies"), WRITE);
        rule(rules, List.of("policy"), List.of("poddisruptionbudgets"), WRITE);
    }

    private static void rule(ArrayNode rules, List<String> groups, List<String> resources, List<String> verbs) {
        ObjectNode rule = rules.addObject();
        fill(rule.putArray("apiGroups"), groups);
        fill(rule.putArray("resources"), resources);
        fill(rule.putArray("verbs"), new ArrayList<>(verbs));
    }

    private static ObjectNode role(String name) {
        ObjectNode role = Json.object();
        role.put("apiVersion", "rbac.authorization.k8s.io/v1");
        role.put("kind", "ClusterRole");
        ObjectNode metadata = role.putObject("metadata");
        metadata.put("name", name);
        metadata.putObject("labels").put("kubernetes.io/bootstrapping", "rbac-defaults");
        metadata.putObject("annotations").put("rbac.authorization.kubernetes.io/autoupdate", "true");
        return role;
    }

    private static ObjectNode binding(String name, String roleName, String group) {
        ObjectNode binding = Json.object();
        binding.put("apiVersion", "rbac.authorization.k8s.io/v1");
        binding.put("kind", "ClusterRoleBinding");
        ObjectNode metadata = binding.putObject("metadata");
        metadata.put("name", name);
        metadata.putObject("labels").put("kubernetes.io/bootstrapping", "rbac-defaults");
        ObjectNode roleRef = binding.putObject("roleRef");
        roleRef.put("apiGroup", RbacAuthorizer.RBAC_GROUP);
        roleRef.put("kind", "ClusterRole");
        roleRef.put("name", roleName);
        ObjectNode subject = binding.putArray("subjects").addObject();
        subject.put("apiGroup", RbacAuthorizer.RBAC_GROUP);
        subject.put("kind", "Group");
        subject.put("name", group);
        return binding;
    }

    private static void fill(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }
}
