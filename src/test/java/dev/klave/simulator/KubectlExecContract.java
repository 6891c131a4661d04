package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kubectl exec and attach against the scripted container; run once per transport by the
 * subclasses (WebSocket, which kubectl 1.32 tries first, and SPDY/3.1, its fallback).
 */
abstract class KubectlExecContract {
    private static ClusterSimulator cluster;
    private static Kubectl admin;
    private static Kubectl viewer;

    /** The environment that makes kubectl use the transport under test. */
    abstract Map<String, String> transport();

    /** What the upgrade request looks like on this transport: method and Upgrade header. */
    abstract String expectedMethod();

    abstract String expectedUpgrade();

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder()
                .object("""
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: box, namespace: default}
                        spec: {containers: [{name: app, image: busybox, env: [{name: GREETING, value: hola}]}]}
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: viv-view, namespace: default}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
                        subjects: [{kind: User, name: "user:viv"}]
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: ed-edit, namespace: default}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
                        subjects: [{kind: User, name: "user:ed"}]
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRole
                        metadata: {name: impersonate-ed}
                        rules: [{apiGroups: [""], resources: [users], verbs: [impersonate], resourceNames: ["user:ed"]}]
                        """)
                .object("""
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRoleBinding
                        metadata: {name: proxy-impersonates-ed}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: impersonate-ed}
                        subjects: [{kind: ServiceAccount, name: klave-proxy, namespace: klave-system}]
                        """)
                .start();
        admin = new Kubectl(cluster, cluster.adminToken());
        viewer = new Kubectl(cluster, cluster.tokenFor("user:viv"));
    }

    @AfterAll
    static void stop() {
        admin.close();
        viewer.close();
        cluster.close();
    }

    @Test
    void execPrintsTheCommandsOutputOverTheTransport() {
        cluster.clearRequests();

        Kubectl.Result result = admin.run(transport(), "", "exec", "box", "--", "echo", "hi", "there");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("hi there\n");
        assertThat(cluster.requests()).anySatisfy(request -> {
            assertThat(request.path()).isEqualTo("/api/v1/namespaces/default/pods/box/exec");
            assertThat(request.method()).isEqualTo(expectedMethod());
            assertThat(request.header("Upgrade")).contains(expectedUpgrade());
            assertThat(request.query().get("command")).containsExactly("echo", "hi", "there");
        });
    }

    @Test
    void execWithStdinEchoesItThroughCat() {
        Kubectl.Result result = admin.run(transport(), "first line\nsecond line\n", "exec", "-i", "box", "--", "cat");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("first line\nsecond line\n");
    }

    @Test
    void theCommandsExitCodeBecomesKubectlsExitCode() {
        Kubectl.Result result = admin.run(transport(), "", "exec", "box", "--", "sh", "-c", "exit 3");

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.stderr()).isEqualTo("command terminated with exit code 3\n");
    }

    @Test
    void stderrStaysSeparateFromStdout() {
        Kubectl.Result result = admin.run(transport(), "", "exec", "box", "--", "sh", "-c", "echo out; echo oops >&2");

        assertThat(result.stdout()).isEqualTo("out\n");
        assertThat(result.stderr()).isEqualTo("oops\n");
    }

    @Test
    void envAndHostnameDescribeThePod() {
        Kubectl.Result env = admin.run(transport(), "", "exec", "box", "--", "env");
        Kubectl.Result hostname = admin.run(transport(), "", "exec", "box", "--", "hostname");

        assertThat(env.stdout()).contains("HOSTNAME=box\n", "GREETING=hola\n");
        assertThat(hostname.stdout()).isEqualTo("box\n");
    }

    @Test
    void attachWithStdinEchoesWhatIsTyped() {
        Kubectl.Result result = admin.run(transport(), "typed\n", "attach", "-i", "box");

        assertThat(result.stdout()).contains("typed\n");
    }

    @Test
    void aViewerMayNotExec() {
        cluster.clearRequests();

        Kubectl.Result result = viewer.run(transport(), "", "exec", "box", "--", "echo", "hi");

        // A refused WebSocket upgrade (403 on GET, verb get) makes kubectl retry over SPDY (POST,
        // verb create), so the message kubectl prints is always the one for create.
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.stderr()).isEqualTo("Error from server (Forbidden): pods \"box\" is forbidden: User \"user:viv\" "
                + "cannot create resource \"pods/exec\" in API group \"\" in the namespace \"default\"\n");
        assertThat(cluster.requests()).filteredOn(request -> request.path().endsWith("/exec"))
                .extracting(RecordedRequest::method).endsWith("POST");
    }

    @Test
    void theProxyExecsAsAnImpersonatedEditor() {
        try (Kubectl proxy = new Kubectl(cluster, cluster.proxyToken())) {
            Kubectl.Result result = proxy.run(transport(), "via proxy\n", "--as=user:ed", "exec", "-i", "box", "--", "cat");

            assertThat(result.exitCode()).as(result.stderr()).isZero();
            assertThat(result.stdout()).isEqualTo("via proxy\n");
            assertThat(cluster.requests().getLast().header("Impersonate-User")).contains("user:ed");
        }
    }

    @Test
    void aWebSocketExecIsAuthorizedAsGetOnPodsExec() {
        SimulatorClient.Response response = new SimulatorClient(cluster, cluster.tokenFor("user:viv")).send("GET",
                "/api/v1/namespaces/default/pods/box/exec?command=true&stdout=true", "",
                Map.of("Sec-WebSocket-Protocol", "v5.channel.k8s.io"));

        assertThat(response.json().path("message").asText()).isEqualTo("pods \"box\" is forbidden: User \"user:viv\" "
                + "cannot get resource \"pods/exec\" in API group \"\" in the namespace \"default\"");
    }
}
