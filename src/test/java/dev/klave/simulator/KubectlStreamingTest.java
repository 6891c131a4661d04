package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.Eventually;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Long-lived responses through kubectl: {@code get --watch} and {@code logs}, plain and followed. */
class KubectlStreamingTest {
    private static ClusterSimulator cluster;
    private static Kubectl admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder()
                .object("""
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: talker
                          namespace: default
                          annotations: {simulator.klave.dev/log: "booting\\nlistening on :8080\\nready"}
                        spec: {containers: [{name: app, image: talker:1}, {name: sidecar, image: proxy:1}]}
                        """)
                .start();
        admin = new Kubectl(cluster, cluster.adminToken());
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void getWatchPrintsTheListThenEventsAndTheWatchEndsWhenKubectlIsKilled() throws IOException {
        admin.run(Map.of(), "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"watched\"}}", "create", "-f", "-");
        cluster.objects().put(pod("watched", "first"));
        Process watch = admin.start(Map.of(), "get", "pods", "-n", "watched", "--watch");
        Eventually.until("kubectl opened its watch", Duration.ofSeconds(10), () -> cluster.openWatches() == 1);

        cluster.objects().put(pod("watched", "second"));

        Eventually.until("kubectl printed the new pod", Duration.ofSeconds(10),
                () -> admin.read(watch, "stdout").contains("second"));
        assertThat(admin.read(watch, "stdout")).startsWith("NAME").containsPattern("first\\s+1/1\\s+Running")
                .containsPattern("second\\s+1/1\\s+Running");
        watch.destroy();
        Eventually.until("the simulator noticed the client leaving", Duration.ofSeconds(10), () -> cluster.openWatches() == 0);
    }

    @Test
    void logsPrintsTheContainersLinesAndTailLimitsThem() {
        Kubectl.Result all = admin.run("logs", "talker", "-c", "app");
        Kubectl.Result tail = admin.run("logs", "talker", "-c", "app", "--tail=1");

        assertThat(all.stdout()).isEqualTo("booting\nlistening on :8080\nready\n");
        assertThat(tail.stdout()).isEqualTo("ready\n");
    }

    @Test
    void logsOfAPodWithTwoContainersNeedsAContainerName() {
        try (ClusterSimulator strict = ClusterSimulator.builder().object(pod("default", "twins").replace(
                "[{name: app, image: app:1}]", "[{name: a, image: app:1}, {name: b, image: app:1}]")).start();
                Kubectl client = new Kubectl(strict, strict.adminToken())) {
            SimulatorClient http = new SimulatorClient(strict, strict.adminToken());

            SimulatorClient.Response response = http.get("/api/v1/namespaces/default/pods/twins/log");

            assertThat(response.status()).isEqualTo(400);
            assertThat(response.json().path("message").asText())
                    .isEqualTo("a container name must be specified for pod twins, choose one of: [a b]");
            assertThat(client.run("logs", "twins", "-c", "b").stdout()).isEqualTo("container b started\n");
        }
    }

    @Test
    void logsFollowStreamsLinesAppendedLater() throws IOException {
        Process follow = admin.start(Map.of(), "logs", "-f", "talker", "-c", "sidecar");
        Eventually.until("the first line arrived", Duration.ofSeconds(10),
                () -> admin.read(follow, "stdout").contains("booting"));

        cluster.appendLog("default", "talker", "sidecar", "GET /healthz 200");

        Eventually.until("the appended line arrived", Duration.ofSeconds(10),
                () -> admin.read(follow, "stdout").contains("GET /healthz 200"));
        follow.destroy();
    }

    @Test
    void logsOfAMissingPodIsNotFound() {
        Kubectl.Result result = admin.run("logs", "ghost");

        // kubectl words this one itself, after the apiserver's 404 on the pod.
        assertThat(result.stderr()).isEqualTo("error: error from server (NotFound): pods \"ghost\" not found in namespace \"default\"\n");
    }

    static String pod(String namespace, String name) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: %s}
                spec: {containers: [{name: app, image: app:1}]}
                """.formatted(name, namespace);
    }
}
