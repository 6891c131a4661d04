package dev.klave.simulator;

import java.util.List;
import java.util.Optional;

/**
 * The resources the simulator serves, as one kube-apiserver v1.32 lists them in discovery, with
 * the subresources kubectl uses.
 */
final class ResourceCatalog {
    static final ResourceType NAMESPACES = core("namespaces", "namespace", "Namespace", false, List.of("ns"), List.of());
    static final ResourceType PODS = core("pods", "pod", "Pod", true, List.of("po"), List.of("all"));
    static final ResourceType SECRETS = core("secrets", "secret", "Secret", true, List.of(), List.of());
    static final ResourceType CONFIG_MAPS = core("configmaps", "configmap", "ConfigMap", true, List.of("cm"), List.of());
    static final ResourceType SERVICES = core("services", "service", "Service", true, List.of("svc"), List.of("all"));
    static final ResourceType EVENTS = core("events", "event", "Event", true, List.of("ev"), List.of());
    static final ResourceType SERVICE_ACCOUNTS = core("serviceaccounts", "serviceaccount", "ServiceAccount", true,
            List.of("sa"), List.of());
    static final ResourceType DEPLOYMENTS = apps("deployments", "deployment", "Deployment", "deploy");
    static final ResourceType STATEFUL_SETS = apps("statefulsets", "statefulset", "StatefulSet", "sts");
    static final ResourceType DAEMON_SETS = apps("daemonsets", "daemonset", "DaemonSet", "ds");
    /**
     * events.k8s.io/v1 events, kept apart from core v1 events. kube-apiserver stores both under one
     * etcd key and converts (involvedObject is regarding, message is note); the simulator stores
     * each version's objects separately, because converting on every read, write and watch would
     * reach into the store for no test's benefit. Scheduler and kubelet events ({@code PodEvents})
     * are recorded in core v1 only, so this resource starts empty and holds what a test writes.
     */
    static final ResourceType EVENTS_V1 = new ResourceType("events.k8s.io", "v1", "events", "event", "Event", true,
            List.of("ev"), List.of(), ResourceType.VERBS);
    /**
     * A custom resource, as a CustomResourceDefinition (group example.com, no printer columns)
     * would serve it: always installed, so tests of kind resolution find a group that is not
     * built in. The CustomResourceDefinition object itself is not served.
     */
    static final ResourceType WIDGETS = new ResourceType("example.com", "v1", "widgets", "widget", "Widget", true,
            List.of("wdg"), List.of(), ResourceType.VERBS);
    /**
     * The resource metrics API as metrics-server serves it (an aggregated API, v1beta1): pods'
     * and nodes' usage, read-only, put by tests. {@link ClusterSimulator#metricsApi} takes it away,
     * as a cluster without metrics-server has none.
     */
    static final ResourceType POD_METRICS = new ResourceType("metrics.k8s.io", "v1beta1", "pods", "podmetrics",
            "PodMetrics", true, List.of(), List.of(), List.of("get", "list"));
    static final ResourceType NODE_METRICS = new ResourceType("metrics.k8s.io", "v1beta1", "nodes", "nodemetrics",
            "NodeMetrics", false, List.of(), List.of(), List.of("get", "list"));
    static final ResourceType SELF_SUBJECT_ACCESS_REVIEWS = review("authorization.k8s.io", "selfsubjectaccessreviews",
            "selfsubjectaccessreview", "SelfSubjectAccessReview");
    static final ResourceType SUBJECT_ACCESS_REVIEWS = review("authorization.k8s.io", "subjectaccessreviews",
            "subjectaccessreview", "SubjectAccessReview");
    static final ResourceType SELF_SUBJECT_REVIEWS = review("authentication.k8s.io", "selfsubjectreviews",
            "selfsubjectreview", "SelfSubjectReview");
    static final ResourceType ROLES = rbac("roles", "role", "Role", true);
    static final ResourceType ROLE_BINDINGS = rbac("rolebindings", "rolebinding", "RoleBinding", true);
    static final ResourceType CLUSTER_ROLES = rbac("clusterroles", "clusterrole", "ClusterRole", false);
    static final ResourceType CLUSTER_ROLE_BINDINGS =
            rbac("clusterrolebindings", "clusterrolebinding", "ClusterRoleBinding", false);

    static final List<ResourceType> ALL = List.of(NAMESPACES, PODS, SECRETS, CONFIG_MAPS, SERVICES, EVENTS,
            SERVICE_ACCOUNTS, DEPLOYMENTS, STATEFUL_SETS, DAEMON_SETS, EVENTS_V1, ROLES, ROLE_BINDINGS, CLUSTER_ROLES, CLUSTER_ROLE_BINDINGS,
            SELF_SUBJECT_ACCESS_REVIEWS, SUBJECT_ACCESS_REVIEWS, SELF_SUBJECT_REVIEWS,
            WIDGETS, POD_METRICS, NODE_METRICS);

    /** A subresource as discovery shows it: {@code pods/log} answers {@code get}, and so on. */
    record Subresource(ResourceType parent, String name, String group, String version, String kind, List<String> verbs) {
    }

    static final List<Subresource> SUBRESOURCES = List.of(
            new Subresource(NAMESPACES, "status", "", "", "Namespace", List.of("get", "patch", "update")),
            new Subresource(PODS, "attach", "", "", "PodAttachOptions", List.of("create", "get")),
            new Subresource(PODS, "exec", "", "", "PodExecOptions", List.of("create", "get")),
            new Subresource(PODS, "log", "", "", "Pod", List.of("get")),
            new Subresource(PODS, "portforward", "", "", "PodPortForwardOptions", List.of("create", "get")),
            new Subresource(PODS, "status", "", "", "Pod", List.of("get", "patch", "update")),
            new Subresource(DEPLOYMENTS, "scale", "autoscaling", "v1", "Scale", List.of("get", "patch", "update")),
            new Subresource(DEPLOYMENTS, "status", "", "", "Deployment", List.of("get", "patch", "update")),
            new Subresource(STATEFUL_SETS, "scale", "autoscaling", "v1", "Scale", List.of("get", "patch", "update")),
            new Subresource(STATEFUL_SETS, "status", "", "", "StatefulSet", List.of("get", "patch", "update")),
            new Subresource(DAEMON_SETS, "status", "", "", "DaemonSet", List.of("get", "patch", "update")));

    private ResourceCatalog() {
    }

    static Optional<ResourceType> find(String group, String version, String plural) {
        return ALL.stream()
                .filter(type -> type.group().equals(group) && type.version().equals(version) && type.plural().equals(plural))
                .findFirst();
    }

    static Optional<ResourceType> byPlural(String plural) {
        return ALL.stream().filter(type -> type.plural().equals(plural)).findFirst();
    }

    static Optional<ResourceType> byKind(String apiVersion, String kind) {
        return ALL.stream().filter(type -> type.apiVersion().equals(apiVersion) && type.kind().equals(kind)).findFirst();
    }

    static List<String> groups() {
        return ALL.stream().map(ResourceType::group).filter(group -> !group.isEmpty()).distinct().toList();
    }

    /** The versions a group serves, in the catalogue's order (the first is the preferred one). */
    static List<String> versions(String group) {
        return ALL.stream().filter(type -> type.group().equals(group)).map(ResourceType::version).distinct().toList();
    }

    static List<ResourceType> inGroupVersion(String group, String version) {
        return ALL.stream().filter(type -> type.group().equals(group) && type.version().equals(version)).toList();
    }

    static boolean hasSubresource(ResourceType type, String name) {
        return SUBRESOURCES.stream().anyMatch(sub -> sub.parent().equals(type) && sub.name().equals(name));
    }

    private static ResourceType core(String plural, String singular, String kind, boolean namespaced,
            List<String> shortNames, List<String> categories) {
        return new ResourceType("", "v1", plural, singular, kind, namespaced, shortNames, categories, ResourceType.VERBS);
    }

    private static ResourceType apps(String plural, String singular, String kind, String shortName) {
        return new ResourceType("apps", "v1", plural, singular, kind, true, List.of(shortName), List.of("all"),
                ResourceType.VERBS);
    }

    private static ResourceType rbac(String plural, String singular, String kind, boolean namespaced) {
        return new ResourceType("rbac.authorization.k8s.io", "v1", plural, singular, kind, namespaced, List.of(), List.of(),
                ResourceType.VERBS);
    }

    private static ResourceType review(String group, String plural, String singular, String kind) {
        return new ResourceType(group, "v1", plural, singular, kind, false, List.of(), List.of(), List.of("create"));
    }
}
