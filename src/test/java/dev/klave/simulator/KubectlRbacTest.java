package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * RBAC and impersonation seen through kubectl: a user bound to {@code view} in one namespace, and
 * the proxy service account allowed to impersonate only the users and groups it was granted.
 */
class KubectlRbacTest {
    private static ClusterSimulator cluster;
    private static Kubectl ana;
    private static Kubectl proxy;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder()
                .object("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}")
                .object("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-b\"}}")
                .object("""
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: api-0, namespace: team-a}
                        spec: {containers: [{name: api, image: api:1}]}
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: ana-view, namespace: team-a}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
                        subjects: [{kind: User, name: "user:ana", apiGroup: rbac.authorization.k8s.io}]
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: oncall-edit, namespace: team-b}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
                        subjects: [{kind: Group, name: "service:oncall", apiGroup: rbac.authorization.k8s.io}]
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRole
                        metadata: {name: klave-impersonator}
                        rules:
                        - {apiGroups: [""], resources: [users], verbs: [impersonate], resourceNames: ["user:ana"]}
                        - {apiGroups: [""], resources: [groups], verbs: [impersonate], resourceNames: ["service:oncall"]}
                        - {apiGroups: [authentication.k8s.io], resources: [uids], verbs: [impersonate], resourceNames: ["ana-uid"]}
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRoleBinding
                        metadata: {name: klave-impersonator}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: klave-impersonator}
                        subjects: [{kind: ServiceAccount, name: klave-proxy, namespace: klave-system}]
                        """)
                .start();
        ana = new Kubectl(cluster, cluster.tokenFor("user:ana"));
        proxy = new Kubectl(cluster, cluster.proxyToken());
    }

    @AfterAll
    static void stop() {
        ana.close();
        proxy.close();
        cluster.close();
    }

    @Test
    void aViewerListsPodsInItsNamespace() {
        Kubectl.Result result = ana.run("get", "pods", "-n", "team-a");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).containsPattern("api-0\\s+1/1\\s+Running");
    }

    @Test
    void aViewerCannotListPodsInAnotherNamespace() {
        Kubectl.Result result = ana.run("get", "pods", "-n", "team-b");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.stderr()).isEqualTo("Error from server (Forbidden): pods is forbidden: User \"user:ana\" "
                + "cannot list resource \"pods\" in API group \"\" in the namespace \"team-b\"\n");
    }

    @Test
    void aViewerCannotCreate() {
        Kubectl.Result result = ana.run(Map.of(),
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"mine\"}}", "create", "-n", "team-a", "-f", "-");

        assertThat(result.stderr()).isEqualTo("Error from server (Forbidden): error when creating \"STDIN\": "
                + "configmaps is forbidden: User \"user:ana\" cannot create resource \"configmaps\" in API group \"\" "
                + "in the namespace \"team-a\"\n");
    }

    @Test
    void theProxyWithoutImpersonationHasNoRightsOfItsOwn() {
        Kubectl.Result result = proxy.run("get", "pods", "-n", "team-a");

        assertThat(result.stderr()).isEqualTo("Error from server (Forbidden): pods is forbidden: User "
                + "\"system:serviceaccount:klave-system:klave-proxy\" cannot list resource \"pods\" in API group \"\" "
                + "in the namespace \"team-a\"\n");
        assertProxyActedAsItself();
    }

    @Test
    void theProxyImpersonatesAGrantedUserWhoseRbacThenApplies() {
        cluster.clearRequests();

        Kubectl.Result allowed = proxy.run("--as=user:ana", "get", "pods", "-n", "team-a");
        Kubectl.Result forbidden = proxy.run("--as=user:ana", "get", "pods", "-n", "team-b");

        assertThat(allowed.stdout()).contains("api-0");
        assertThat(forbidden.stderr()).isEqualTo("Error from server (Forbidden): pods is forbidden: User \"user:ana\" "
                + "cannot list resource \"pods\" in API group \"\" in the namespace \"team-b\"\n");
        assertThat(cluster.requests()).anySatisfy(request -> {
            assertThat(request.path()).isEqualTo("/api/v1/namespaces/team-a/pods");
            assertThat(request.header("Impersonate-User")).contains("user:ana");
            assertThat(request.header("Authorization")).contains("Bearer " + cluster.proxyToken());
        });
    }

    @Test
    void impersonatedGroupsAreAuthorizedTogetherWithTheUser() {
        Kubectl.Result result = proxy.run("--as=user:ana", "--as-group=service:oncall", "--as-uid=ana-uid",
                "get", "pods", "-n", "team-b");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(cluster.requests().getLast().headers("Impersonate-Group")).containsExactly("service:oncall");
        assertThat(cluster.requests().getLast().header("Impersonate-Uid")).contains("ana-uid");
    }

    @Test
    void impersonatingAnUngrantedUserIsForbiddenWithTheApiserversMessage() {
        Kubectl.Result result = proxy.run("--as=user:mallory", "get", "pods", "-n", "team-a");

        assertThat(result.stderr()).isEqualTo("Error from server (Forbidden): users \"user:mallory\" is forbidden: User "
                + "\"system:serviceaccount:klave-system:klave-proxy\" cannot impersonate resource \"users\" in API group \"\" "
                + "at the cluster scope\n");
    }

    @Test
    void impersonatingAnUngrantedGroupOrUidIsForbidden() {
        Kubectl.Result group = proxy.run("--as=user:ana", "--as-group=system:masters", "get", "pods", "-n", "team-a");
        Kubectl.Result uid = proxy.run("--as=user:ana", "--as-uid=other", "get", "pods", "-n", "team-a");

        assertThat(group.stderr()).isEqualTo("Error from server (Forbidden): groups \"system:masters\" is forbidden: User "
                + "\"system:serviceaccount:klave-system:klave-proxy\" cannot impersonate resource \"groups\" in API group \"\" "
                + "at the cluster scope\n");
        assertThat(uid.stderr()).isEqualTo("Error from server (Forbidden): uids.authentication.k8s.io \"other\" is forbidden: "
                + "User \"system:serviceaccount:klave-system:klave-proxy\" cannot impersonate resource \"uids\" in API group "
                + "\"authentication.k8s.io\" at the cluster scope\n");
    }

    @Test
    void aUserCannotImpersonateWithoutTheImpersonateVerb() {
        Kubectl.Result result = ana.run("--as=user:bob", "get", "pods", "-n", "team-a");

        assertThat(result.stderr()).contains("users \"user:bob\" is forbidden: User \"user:ana\" cannot impersonate "
                + "resource \"users\" in API group \"\" at the cluster scope");
        assertThat(List.of(result.exitCode())).containsExactly(1);
    }

    /** The proxy's token without impersonation, sent here on purpose: the header guard saw each request. */
    private void assertProxyActedAsItself() {
        assertThat(cluster.takeHeaderViolations()).isNotEmpty().allSatisfy(violation ->
                assertThat(violation.why()).isEqualTo("the proxy's token without impersonating anyone"));
    }
}
