package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Server-side apply, server dry runs and the scale subresource, driven by kubectl. */
class KubectlApplyTest {
    private static ClusterSimulator cluster;
    private static Kubectl admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder().start();
        admin = new Kubectl(cluster, cluster.adminToken());
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void serverSideApplyCreatesUpdatesAndRecordsTheManager() {
        Kubectl.Result created = admin.run(Map.of(), configMap("ssa", "a: one\n  b: two"), "apply", "--server-side", "-f", "-");
        Kubectl.Result updated = admin.run(Map.of(), configMap("ssa", "a: three"), "apply", "--server-side", "-f", "-");

        assertThat(created.stdout()).isEqualTo("configmap/ssa serverside-applied\n");
        assertThat(updated.stdout()).isEqualTo("configmap/ssa serverside-applied\n");
        ObjectNode stored = cluster.objects().get("configmaps", "default", "ssa").orElseThrow();
        assertThat(stored.path("data").properties()).hasSize(1);
        assertThat(stored.at("/data/a").asText()).isEqualTo("three");
        assertThat(stored.at("/metadata/managedFields/0/manager").asText()).isEqualTo("kubectl");
        assertThat(stored.at("/metadata/managedFields/0/operation").asText()).isEqualTo("Apply");
        assertThat(stored.at("/metadata/managedFields/0/fieldsV1/f:data/f:a").isObject()).isTrue();
    }

    @Test
    void serverSideApplyConflictsWithAnotherManagerUnlessForced() {
        admin.run(Map.of(), configMap("owned", "color: blue"), "apply", "-f", "-");

        Kubectl.Result conflict = admin.run(Map.of(), configMap("owned", "color: red"), "apply", "--server-side", "-f", "-");
        Kubectl.Result forced = admin.run(Map.of(), configMap("owned", "color: red"), "apply", "--server-side",
                "--force-conflicts", "-f", "-");

        assertThat(conflict.exitCode()).isEqualTo(1);
        assertThat(conflict.stderr()).startsWith("error: Apply failed with 1 conflict: conflict with "
                + "\"kubectl-client-side-apply\" using v1: .data.color");
        assertThat(forced.stdout()).isEqualTo("configmap/owned serverside-applied\n");
        assertThat(cluster.objects().get("configmaps", "default", "owned").orElseThrow().at("/data/color").asText())
                .isEqualTo("red");
    }

    @Test
    void aServerDryRunValidatesButStoresNothing() {
        long before = cluster.objects().resourceVersion();

        Kubectl.Result dryRun = admin.run(Map.of(), configMap("dry", "a: b"), "apply", "--dry-run=server", "-f", "-");
        Kubectl.Result dryServerSide = admin.run(Map.of(), configMap("dry", "a: b"), "apply", "--server-side",
                "--dry-run=server", "-f", "-");

        assertThat(dryRun.stdout()).isEqualTo("configmap/dry created (server dry run)\n");
        assertThat(dryServerSide.stdout()).isEqualTo("configmap/dry serverside-applied (server dry run)\n");
        assertThat(cluster.objects().get("configmaps", "default", "dry")).isEmpty();
        assertThat(cluster.objects().resourceVersion()).isEqualTo(before);
    }

    @Test
    void aServerDryRunDeleteKeepsTheObject() {
        admin.run(Map.of(), configMap("kept", "a: b"), "apply", "-f", "-");

        Kubectl.Result result = admin.run("delete", "configmap", "kept", "--dry-run=server");

        assertThat(result.stdout()).isEqualTo("configmap \"kept\" deleted (server dry run)\n");
        assertThat(cluster.objects().get("configmaps", "default", "kept")).isPresent();
    }

    @Test
    void scaleChangesTheReplicasThroughTheScaleSubresource() {
        admin.run(Map.of(), """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: api}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: api}}
                  template:
                    metadata: {labels: {app: api}}
                    spec: {containers: [{name: api, image: api:1}]}
                """, "apply", "-f", "-");
        cluster.clearRequests();

        Kubectl.Result scaled = admin.run("scale", "deployment", "api", "--replicas=4");

        assertThat(scaled.stdout()).isEqualTo("deployment.apps/api scaled\n");
        assertThat(cluster.requests()).anySatisfy(request ->
                assertThat(request.path()).isEqualTo("/apis/apps/v1/namespaces/default/deployments/api/scale"));
        assertThat(admin.run("get", "deployment", "api").stdout()).containsPattern("api\\s+4/4\\s+4\\s+4");
        ObjectNode scale = new SimulatorClient(cluster, cluster.adminToken())
                .get("/apis/apps/v1/namespaces/default/deployments/api/scale").json();
        assertThat(scale.path("kind").asText()).isEqualTo("Scale");
        assertThat(scale.path("apiVersion").asText()).isEqualTo("autoscaling/v1");
        assertThat(scale.at("/spec/replicas").asInt()).isEqualTo(4);
        assertThat(scale.at("/status/selector").asText()).isEqualTo("app=api");
    }

    private static String configMap(String name, String data) {
        return """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: %s, namespace: default}
                data:
                  %s
                """.formatted(name, data);
    }
}
