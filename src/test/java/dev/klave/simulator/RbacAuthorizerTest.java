package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** RBAC decisions, table-driven, against roles and bindings in a store (no HTTP). */
class RbacAuthorizerTest {
    private static final UserInfo ANA = UserInfo.of("user:ana", List.of("team-a-devs", "system:authenticated"));
    private static final UserInfo BOB = UserInfo.of("user:bob", List.of("system:authenticated"));
    private static final UserInfo CI = UserInfo.serviceAccount("team-a", "ci");
    private static final UserInfo ROOT = UserInfo.of("root", List.of("system:masters"));
    private static SimulatorObjects objects;
    private static RbacAuthorizer authorizer;

    @BeforeAll
    static void policy() {
        ObjectStore store = new ObjectStore(Clock.systemUTC());
        objects = new SimulatorObjects(store);
        for (String namespace : List.of("team-a", "team-b")) {
            objects.put("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + namespace + "\"}}");
        }
        BuiltInRoles.clusterRoles().forEach(objects::put);
        objects.put("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata: {name: devs-view, namespace: team-a}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
                subjects: [{kind: Group, name: team-a-devs, apiGroup: rbac.authorization.k8s.io}]
                """);
        objects.put("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: Role
                metadata: {name: one-config, namespace: team-a}
                rules:
                - {apiGroups: [""], resources: [configmaps], resourceNames: [settings], verbs: [get, update]}
                - {apiGroups: [apps], resources: [deployments/scale], verbs: [patch]}
                - {apiGroups: [""], resources: [pods/exec], verbs: [create]}
                """);
        objects.put("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata: {name: bob-one-config, namespace: team-a}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: one-config}
                subjects: [{kind: User, name: "user:bob", apiGroup: rbac.authorization.k8s.io}]
                """);
        objects.put("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata: {name: ci-edit, namespace: team-a}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
                subjects: [{kind: ServiceAccount, name: ci}]
                """);
        objects.put("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata: {name: everything-scaled}
                rules: [{apiGroups: ["*"], resources: ["*/scale"], verbs: ["*"]}]
                """);
        objects.put("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRoleBinding
                metadata: {name: bob-scales}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: everything-scaled}
                subjects: [{kind: User, name: "user:bob"}]
                """);
        authorizer = new RbacAuthorizer(store);
    }

    static Stream<Arguments> decisions() {
        return Stream.of(
                Arguments.of("view lists pods in its namespace", ANA, "list", "", "pods", "", "team-a", "", true),
                Arguments.of("view does not reach another namespace", ANA, "list", "", "pods", "", "team-b", "", false),
                Arguments.of("view does not create", ANA, "create", "", "pods", "", "team-a", "", false),
                Arguments.of("view does not read secrets", ANA, "get", "", "secrets", "", "team-a", "db", false),
                Arguments.of("view reads pod logs", ANA, "get", "", "pods", "log", "team-a", "web", true),
                Arguments.of("view does not exec", ANA, "create", "", "pods", "exec", "team-a", "web", false),
                Arguments.of("view reads deployments in apps", ANA, "watch", "apps", "deployments", "", "team-a", "", true),
                Arguments.of("view does not read rbac", ANA, "list", "rbac.authorization.k8s.io", "roles", "", "team-a", "", false),
                Arguments.of("resourceNames allow the named object", BOB, "get", "", "configmaps", "", "team-a", "settings", true),
                Arguments.of("resourceNames refuse other names", BOB, "get", "", "configmaps", "", "team-a", "other", false),
                Arguments.of("resourceNames refuse lists", BOB, "list", "", "configmaps", "", "team-a", "", false),
                Arguments.of("a subresource rule does not grant the resource", BOB, "patch", "apps", "deployments", "", "team-a", "web", false),
                Arguments.of("a subresource rule grants the subresource", BOB, "patch", "apps", "deployments", "scale", "team-a", "web", true),
                Arguments.of("*/scale grants scale of any resource everywhere", BOB, "update", "apps", "replicasets", "scale", "team-b", "x", true),
                Arguments.of("exec needs create on pods/exec", BOB, "create", "", "pods", "exec", "team-a", "web", true),
                Arguments.of("exec by GET needs get on pods/exec", BOB, "get", "", "pods", "exec", "team-a", "web", false),
                Arguments.of("a service account subject defaults to the binding namespace", CI, "create", "", "secrets", "", "team-a", "", true),
                Arguments.of("edit does not write roles", CI, "create", "rbac.authorization.k8s.io", "roles", "", "team-a", "", false),
                Arguments.of("edit execs", CI, "get", "", "pods", "exec", "team-a", "web", true),
                Arguments.of("system:masters may do anything", ROOT, "delete", "", "namespaces", "", "", "team-a", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decisions")
    void decides(String description, UserInfo user, String verb, String group, String resource, String subresource,
            String namespace, String name, boolean allowed) {
        AuthorizationAttributes attributes = AuthorizationAttributes.resource(user, verb, group, resource, subresource, namespace, name);

        assertThat(authorizer.authorize(attributes).allowed()).isEqualTo(allowed);
    }

    @Test
    void aBindingToAMissingRoleIsNamedInTheReason() {
        objects.put("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata: {name: dangling, namespace: team-b}
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: gone}
                subjects: [{kind: User, name: "user:carol"}]
                """);
        UserInfo carol = UserInfo.of("user:carol", List.of("system:authenticated"));

        RbacAuthorizer.Decision decision = authorizer.authorize(
                AuthorizationAttributes.resource(carol, "get", "", "pods", "", "team-b", "web"));

        assertThat(decision.allowed()).isFalse();
        assertThat(decision.reason()).isEqualTo("RBAC: role.rbac.authorization.k8s.io \"gone\" not found");
    }

    @Test
    void forbiddenMessagesUseTheApiserversWording() {
        AuthorizationAttributes namespaced = AuthorizationAttributes.resource(ANA, "list", "", "pods", "", "team-b", "");
        AuthorizationAttributes named = AuthorizationAttributes.resource(ANA, "get", "apps", "deployments", "scale", "team-b", "web");
        AuthorizationAttributes cluster = AuthorizationAttributes.resource(ANA, "impersonate", "", "users", "", "", "user:bob");

        assertThat(namespaced.forbidden("").getMessage()).isEqualTo(
                "pods is forbidden: User \"user:ana\" cannot list resource \"pods\" in API group \"\" in the namespace \"team-b\"");
        assertThat(named.forbidden("").getMessage()).isEqualTo("deployments.apps \"web\" is forbidden: User \"user:ana\" "
                + "cannot get resource \"deployments/scale\" in API group \"apps\" in the namespace \"team-b\"");
        assertThat(cluster.forbidden("").getMessage()).isEqualTo("users \"user:bob\" is forbidden: User \"user:ana\" "
                + "cannot impersonate resource \"users\" in API group \"\" at the cluster scope");
    }
}
