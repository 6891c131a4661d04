package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Escalation prevention as a reconciler meets it: it may write roles and bindings only for
 * permissions it holds itself, or with the {@code escalate} and {@code bind} verbs.
 */
class KubectlRbacEscalationTest {
    private static ClusterSimulator cluster;
    private static Kubectl reconciler;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder()
                .object("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}")
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRole
                        metadata: {name: klave-reconciler}
                        rules:
                        - apiGroups: [rbac.authorization.k8s.io]
                          resources: [roles, rolebindings, clusterroles, clusterrolebindings]
                          verbs: [create, get, list, update, patch, delete]
                        - {apiGroups: [""], resources: [pods], verbs: [get, list]}
                        - {apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], verbs: [bind], resourceNames: [edit]}
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRoleBinding
                        metadata: {name: klave-reconciler}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: klave-reconciler}
                        subjects: [{kind: ServiceAccount, name: klave-reconciler, namespace: klave-system}]
                        """)
                .start();
        reconciler = new Kubectl(cluster, cluster.reconcilerToken());
    }

    @AfterAll
    static void stop() {
        reconciler.close();
        cluster.close();
    }

    @Test
    void aRoleWithinTheWritersOwnPermissionsIsAllowed() {
        Kubectl.Result result = reconciler.run(Map.of(), role("pod-reader", "[get]"), "apply", "-f", "-");

        assertThat(result.stdout()).isEqualTo("role.rbac.authorization.k8s.io/pod-reader created\n");
    }

    @Test
    void aRoleGrantingMoreThanTheWriterHoldsIsForbidden() {
        Kubectl.Result result = reconciler.run(Map.of(), role("pod-deleter", "[get, delete]"), "apply", "-f", "-");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.stderr()).contains("roles.rbac.authorization.k8s.io \"pod-deleter\" is forbidden: user \""
                + ClusterSimulator.RECONCILER_USER + "\" (groups=[\"system:serviceaccounts\" \"system:serviceaccounts:klave-system\" "
                + "\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
                + "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"delete\"]}");
        assertThat(cluster.objects().get("roles", "team-a", "pod-deleter")).isEmpty();
    }

    @Test
    void bindingARoleNeedsItsPermissionsOrTheBindVerb() {
        Kubectl.Result withoutBind = reconciler.run(Map.of(), binding("ana-view", "view"), "apply", "-f", "-");
        Kubectl.Result withBind = reconciler.run(Map.of(), binding("ana-edit", "edit"), "apply", "-f", "-");

        assertThat(withoutBind.stderr()).contains("rolebindings.rbac.authorization.k8s.io \"ana-view\" is forbidden",
                "is attempting to grant RBAC permissions not currently held", "Resources:[\"configmaps\"]");
        assertThat(withBind.stdout()).isEqualTo("rolebinding.rbac.authorization.k8s.io/ana-edit created\n");
    }

    @Test
    void theAdminMayGrantAnything() {
        try (Kubectl admin = new Kubectl(cluster, cluster.adminToken())) {
            Kubectl.Result result = admin.run(Map.of(), role("anything", "['*']"), "apply", "-f", "-");

            assertThat(result.exitCode()).as(result.stderr()).isZero();
        }
    }

    private static String role(String name, String verbs) {
        return """
                apiVersion: rbac.authorization.k8s.io/v1
                kind: Role
                metadata: {name: %s, namespace: team-a}
                rules: [{apiGroups: [""], resources: [pods], verbs: %s}]
                """.formatted(name, verbs);
    }

    private static String binding(String name, String clusterRole) {
        return """
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata: {name: %s, namespace: team-a}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: %s}
                subjects: [{kind: User, name: "user:ana", apiGroup: rbac.authorization.k8s.io}]
                """.formatted(name, clusterRole);
    }
}
