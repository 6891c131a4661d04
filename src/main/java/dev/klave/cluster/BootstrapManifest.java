package dev.klave.cluster;

/**
 * The manifest an operator applies in a cluster to let Klave in (spec 1 §2 "Cluster"): Klave's
 * namespace, a service account for the proxy and one for the reconciler, each with a token Secret,
 * and least-privilege roles. The proxy may only impersonate what the reconciler lists in
 * {@code klave-impersonation}; the reconciler may only bind the four tier roles, edit that one
 * ClusterRole, manage bindings and read namespaces.
 */
public final class BootstrapManifest {
    public static final String NAMESPACE = "klave-system";

    private BootstrapManifest() {}

    public static String forCluster(ClusterId cluster, String klaveBaseUrl) {
        return TEMPLATE.replace("{cluster}", cluster.value()).replace("{base}", klaveBaseUrl);
    }

    private static final String TEMPLATE = """
            # Klave bootstrap for cluster "{cluster}" ({base})
            #
            # 1. Apply this manifest with a cluster-admin kubeconfig:
            #      kubectl apply -f bootstrap.yaml
            # 2. Print the bootstrap JSON and paste it into Klave (cluster "{cluster}"):
            #      printf '{"server":"%s","ca":"%s","proxyToken":"%s","reconcilerToken":"%s"}\\n' "$(kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}')" "$(kubectl -n klave-system get secret klave-proxy-token -o jsonpath='{.data.ca\\.crt}')" "$(kubectl -n klave-system get secret klave-proxy-token -o jsonpath='{.data.token}' | base64 -d)" "$(kubectl -n klave-system get secret klave-reconciler-token -o jsonpath='{.data.token}' | base64 -d)"
            #
            # Everything Klave creates carries the label app.kubernetes.io/managed-by=klave; Klave never
            # changes objects without it.
            apiVersion: v1
            kind: Namespace
            metadata:
              name: klave-system
              labels:
                app.kubernetes.io/managed-by: klave
                pod-security.kubernetes.io/enforce: restricted
            ---
            apiVersion: v1
            kind: ServiceAccount
            metadata:
              name: klave-proxy
              namespace: klave-system
              labels:
                app.kubernetes.io/managed-by: klave
            ---
            apiVersion: v1
            kind: ServiceAccount
            metadata:
              name: klave-reconciler
              namespace: klave-system
              labels:
                app.kubernetes.io/managed-by: klave
            ---
            apiVersion: v1
            kind: Secret
            type: kubernetes.io/service-account-token
            metadata:
              name: klave-proxy-token
              namespace: klave-system
              labels:
                app.kubernetes.io/managed-by: klave
              annotations:
                kubernetes.io/service-account.name: klave-proxy
            ---
            apiVersion: v1
            kind: Secret
            type: kubernetes.io/service-account-token
            metadata:
              name: klave-reconciler-token
              namespace: klave-system
              labels:
                app.kubernetes.io/managed-by: klave
              annotations:
                kubernetes.io/service-account.name: klave-reconciler
            ---
            # The users, groups and uids the proxy may impersonate. Starts empty; the reconciler
            # keeps it equal to the active grants.
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: klave-impersonation
              labels:
                app.kubernetes.io/managed-by: klave
            rules: []
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRoleBinding
            metadata:
              name: klave-proxy-impersonation
              labels:
                app.kubernetes.io/managed-by: klave
            roleRef:
              apiGroup: rbac.authorization.k8s.io
              kind: ClusterRole
              name: klave-impersonation
            subjects:
              - kind: ServiceAccount
                name: klave-proxy
                namespace: klave-system
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: klave-reconciler
              labels:
                app.kubernetes.io/managed-by: klave
            rules:
              - apiGroups: ["rbac.authorization.k8s.io"]
                resources: ["clusterroles"]
                resourceNames: ["klave-impersonation"]
                verbs: ["get", "update", "patch", "delete", "escalate"]
              - apiGroups: ["rbac.authorization.k8s.io"]
                resources: ["clusterroles"]
                resourceNames: ["view", "edit", "admin", "cluster-admin"]
                verbs: ["bind"]
              - apiGroups: ["rbac.authorization.k8s.io"]
                resources: ["rolebindings", "clusterrolebindings"]
                verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
              - apiGroups: [""]
                resources: ["namespaces"]
                verbs: ["get", "list", "watch"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRoleBinding
            metadata:
              name: klave-reconciler
              labels:
                app.kubernetes.io/managed-by: klave
            roleRef:
              apiGroup: rbac.authorization.k8s.io
              kind: ClusterRole
              name: klave-reconciler
            subjects:
              - kind: ServiceAccount
                name: klave-reconciler
                namespace: klave-system
            """;
}
