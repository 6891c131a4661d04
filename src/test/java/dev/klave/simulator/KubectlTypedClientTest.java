package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubectl commands built on typed clients, which send protobuf bodies: the generators of
 * {@code kubectl create}, and {@code auth can-i} / {@code auth whoami} with their review resources.
 */
class KubectlTypedClientTest {
    private static ClusterSimulator cluster;
    private static Kubectl admin;
    private static Kubectl proxy;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder()
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRole
                        metadata: {name: impersonate-ana}
                        rules: [{apiGroups: [""], resources: [users], verbs: [impersonate], resourceNames: ["user:ana"]}]
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRoleBinding
                        metadata: {name: proxy-impersonates-ana}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: impersonate-ana}
                        subjects: [{kind: ServiceAccount, name: klave-proxy, namespace: klave-system}]
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: ana-view, namespace: default}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
                        subjects: [{kind: User, name: "user:ana"}]
                        """)
                .start();
        admin = new Kubectl(cluster, cluster.adminToken());
        proxy = new Kubectl(cluster, cluster.proxyToken());
    }

    @AfterAll
    static void stop() {
        admin.close();
        proxy.close();
        cluster.close();
    }

    @Test
    void createConfigMapAndSecretStoreTheirData() {
        Kubectl.Result configMap = admin.run("create", "configmap", "flags", "--from-literal=a=1", "--from-literal=b=2");
        Kubectl.Result secret = admin.run("create", "secret", "generic", "creds", "--from-literal=password=s3cret");

        assertThat(configMap.stdout()).isEqualTo("configmap/flags created\n");
        assertThat(secret.stdout()).isEqualTo("secret/creds created\n");
        assertThat(cluster.requests()).anySatisfy(request ->
                assertThat(request.header("Content-Type")).contains(ProtobufBodies.CONTENT_TYPE));
        assertThat(cluster.objects().get("configmaps", "default", "flags").orElseThrow().path("data").toString())
                .isEqualTo("{\"a\":\"1\",\"b\":\"2\"}");
        ObjectNode stored = cluster.objects().get("secrets", "default", "creds").orElseThrow();
        assertThat(new String(Base64.getDecoder().decode(stored.at("/data/password").asText()), StandardCharsets.UTF_8))
                .isEqualTo("s3cret");
        assertThat(stored.path("type").asText()).isEqualTo("Opaque");
    }

    @Test
    void createNamespaceRoleAndRoleBindingGiveWorkingRbac() {
        admin.run("create", "namespace", "shop");
        admin.run("create", "role", "reader", "-n", "shop", "--verb=get,list", "--resource=pods,deployments.apps");
        Kubectl.Result binding = admin.run("create", "rolebinding", "bob-reads", "-n", "shop", "--role=reader", "--user=user:bob");

        assertThat(binding.stdout()).isEqualTo("rolebinding.rbac.authorization.k8s.io/bob-reads created\n");
        ObjectNode role = cluster.objects().get("roles", "shop", "reader").orElseThrow();
        assertThat(role.at("/rules/0/apiGroups").toString()).isEqualTo("[\"\"]");
        assertThat(role.at("/rules/1/apiGroups").toString()).isEqualTo("[\"apps\"]");
        try (Kubectl bob = new Kubectl(cluster, cluster.tokenFor("user:bob"))) {
            assertThat(bob.run("get", "pods", "-n", "shop").exitCode()).isZero();
            assertThat(bob.run("get", "secrets", "-n", "shop").exitCode()).isEqualTo(1);
        }
    }

    @Test
    void createDeploymentAndServiceKeepTheirSpecs() {
        Kubectl.Result deployment = admin.run("create", "deployment", "api", "--image=api:1", "--replicas=3", "--port=8080");
        Kubectl.Result service = admin.run("create", "service", "clusterip", "api", "--tcp=80:8080");

        assertThat(deployment.stdout()).isEqualTo("deployment.apps/api created\n");
        assertThat(service.stdout()).isEqualTo("service/api created\n");
        assertThat(admin.run("get", "deployment", "api").stdout()).containsPattern("api\\s+3/3\\s+3\\s+3");
        ObjectNode stored = cluster.objects().get("services", "default", "api").orElseThrow();
        assertThat(stored.at("/spec/ports/0/port").asInt()).isEqualTo(80);
        assertThat(stored.at("/spec/ports/0/targetPort").asInt()).isEqualTo(8080);
    }

    @Test
    void authCanIAnswersFromRbacForTheCallerOrTheImpersonatedUser() {
        assertThat(admin.run("auth", "can-i", "delete", "namespaces").stdout()).isEqualTo("yes\n");
        assertThat(proxy.run("auth", "can-i", "list", "pods").stdout()).isEqualTo("no\n");
        assertThat(proxy.run("--as=user:ana", "auth", "can-i", "list", "pods").stdout()).isEqualTo("yes\n");
        assertThat(proxy.run("--as=user:ana", "auth", "can-i", "create", "pods").stdout()).isEqualTo("no\n");
        assertThat(proxy.run("--as=user:ana", "auth", "can-i", "get", "/healthz").stdout()).isEqualTo("yes\n");
        assertProxyActedAsItself();
    }

    @Test
    void authWhoamiShowsTheAuthenticatedOrImpersonatedUser() {
        Kubectl.Result self = proxy.run("auth", "whoami");
        Kubectl.Result impersonated = proxy.run("--as=user:ana", "auth", "whoami");

        assertThat(self.stdout()).containsPattern("Username\\s+" + ClusterSimulator.PROXY_USER.replace(".", "\\."));
        assertThat(impersonated.stdout()).containsPattern("Username\\s+user:ana")
                .containsPattern("Groups\\s+\\[system:authenticated\\]");
        assertProxyActedAsItself();
    }

    /** The proxy's token without impersonation, sent here on purpose: the header guard saw each request. */
    private void assertProxyActedAsItself() {
        assertThat(cluster.takeHeaderViolations()).isNotEmpty().allSatisfy(violation ->
                assertThat(violation.why()).isEqualTo("the proxy's token without impersonating anyone"));
    }
}
