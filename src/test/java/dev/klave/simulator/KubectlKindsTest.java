package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl resolves and prints the workload kinds, the custom resource and the two Event
 * kinds, scales and restarts workloads, and reads a restarted container's previous log.
 */
class KubectlKindsTest {
    private static ClusterSimulator cluster;
    private static Kubectl admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder()
                .object(WorkloadsTest.workload("StatefulSet", "db", "replicas: 2\n  "))
                .object(WorkloadsTest.workload("StatefulSet", "cache", "replicas: 1\n  "))
                .object(WorkloadsTest.workload("DaemonSet", "agent", ""))
                .object(WorkloadsTest.workload("Deployment", "web", ""))
                .object("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"gear\",\"namespace\":\"default\"}}")
                .start();
        admin = new Kubectl(cluster, cluster.adminToken());
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void getPrintsStatefulSetsAndDaemonSetsWithTheirColumns() {
        Kubectl.Result statefulSets = admin.run("get", "sts");
        Kubectl.Result daemonSets = admin.run("get", "ds");
        Kubectl.Result all = admin.run("get", "all");

        assertThat(statefulSets.stdout()).containsPattern("NAME\\s+READY\\s+AGE\n").containsPattern("db\\s+2/2\\s+\\d+s");
        assertThat(daemonSets.stdout())
                .containsPattern("NAME\\s+DESIRED\\s+CURRENT\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+NODE SELECTOR\\s+AGE\n")
                .containsPattern("agent\\s+1\\s+1\\s+1\\s+1\\s+1\\s+<none>\\s+\\d+s");
        assertThat(all.stdout()).contains("statefulset.apps/db", "daemonset.apps/agent", "deployment.apps/web");
    }

    @Test
    void theCustomResourceIsFoundByItsShortNameAndPrintsNameAndAge() {
        Kubectl.Result widgets = admin.run("get", "wdg");
        Kubectl.Result resources = admin.run("api-resources", "--api-group=example.com");

        assertThat(widgets.exitCode()).as(widgets.stderr()).isZero();
        assertThat(widgets.stdout()).containsPattern("NAME\\s+AGE\n").containsPattern("gear\\s+\\d+s");
        assertThat(resources.stdout()).containsPattern("widgets\\s+wdg\\s+example.com/v1\\s+true\\s+Widget");
    }

    @Test
    void eventsOfEitherGroupAreReachedByTheirFullyQualifiedName() {
        Kubectl.Result core = admin.run("get", "events.v1.", "-o", "name");
        Kubectl.Result grouped = admin.run("get", "events.v1.events.k8s.io");

        assertThat(core.exitCode()).as(core.stderr()).isZero();
        assertThat(grouped.exitCode()).as(grouped.stderr()).isZero();
        assertThat(grouped.stderr()).contains("No resources found in default namespace.");
    }

    @Test
    void scaleAndRolloutRestartChangeTheStatefulSet() {
        Kubectl.Result scaled = admin.run("scale", "statefulset", "cache", "--replicas=4");
        Kubectl.Result restarted = admin.run("rollout", "restart", "statefulset/cache");
        Kubectl.Result restartedDaemons = admin.run("rollout", "restart", "daemonset/agent");

        assertThat(scaled.stdout()).isEqualTo("statefulset.apps/cache scaled\n");
        assertThat(restarted.stdout()).as(restarted.stderr()).isEqualTo("statefulset.apps/cache restarted\n");
        assertThat(restartedDaemons.stdout()).as(restartedDaemons.stderr()).isEqualTo("daemonset.apps/agent restarted\n");
        ObjectNode cache = cluster.objects().get("statefulsets", "default", "cache").orElseThrow();
        assertThat(cache.at("/status/readyReplicas").asInt()).isEqualTo(4);
        assertThat(cache.at("/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt").asText()).isNotEmpty();
        assertThat(cache.at("/metadata/generation").asInt()).isEqualTo(3);
        assertThat(cache.at("/status/observedGeneration").asInt()).isEqualTo(3);
    }

    @Test
    void logsPreviousShowsTheRestartedContainersLastWords() {
        cluster.objects().put("""
                apiVersion: v1
                kind: Pod
                metadata: {name: crashy, namespace: default}
                spec: {containers: [{name: app, image: app}]}
                """);
        Kubectl.Result none = admin.run("logs", "crashy", "--previous");
        cluster.pods().appendLog("default", "crashy", "app", "panic: boom");
        cluster.pods().restartContainer("default", "crashy", "app", 2);

        Kubectl.Result previous = admin.run("logs", "crashy", "--previous");
        Kubectl.Result pods = admin.run("get", "pod", "crashy");

        assertThat(none.stderr()).isEqualTo("Error from server (BadRequest): previous terminated container \"app\" in pod "
                + "\"crashy\" not found\n");
        assertThat(previous.stdout()).isEqualTo("container app started\npanic: boom\n");
        assertThat(pods.stdout()).containsPattern("crashy\\s+1/1\\s+Running\\s+1 \\(\\d+s ago\\)\\s+\\d+s");
    }
}
