package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.Eventually;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Start-up values and a clean stop: open streams end, the port closes, no thread keeps the JVM up. */
class LifecycleTest {
    @Test
    void startGivesAnHttpsUrlACaAndDistinctTokens() {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            assertThat(cluster.url()).isEqualTo("https://127.0.0.1:" + cluster.port());
            assertThat(cluster.caCertificatePem()).startsWith("-----BEGIN CERTIFICATE-----");
            assertThat(Set.of(cluster.proxyToken(), cluster.reconcilerToken(), cluster.adminToken())).hasSize(3);
        }
    }

    @Test
    void theServiceAccountTokensAuthenticateAsTheirServiceAccounts() {
        try (ClusterSimulator cluster = ClusterSimulator.builder().start();
                Kubectl reconciler = new Kubectl(cluster, cluster.reconcilerToken())) {
            Kubectl.Result result = reconciler.run("get", "pods");

            assertThat(result.stderr()).contains("User \"" + ClusterSimulator.RECONCILER_USER + "\" cannot list");
        }
    }

    @Test
    void closeEndsOpenWatchesClosesThePortAndLeavesNoPlatformThreads() throws Exception {
        Set<String> threadsBefore = nonDaemonThreads();
        ClusterSimulator cluster = ClusterSimulator.builder().start();
        SimulatorClient client = new SimulatorClient(cluster, cluster.adminToken());
        HttpResponse<Stream<String>> watch = client.httpClient().send(
                HttpRequest.newBuilder(URI.create(cluster.url() + "/api/v1/namespaces?watch=true"))
                        .header("Authorization", "Bearer " + cluster.adminToken()).build(),
                HttpResponse.BodyHandlers.ofLines());
        Iterator<String> events = watch.body().iterator();
        events.next();
        int port = cluster.port();

        cluster.close();

        Eventually.until("the watch stream ended", Duration.ofSeconds(10), () -> {
            try {
                while (events.hasNext()) {
                    events.next();
                }
                return true;
            } catch (RuntimeException ended) {
                return true;
            }
        });
        assertThat(cluster.openWatches()).isZero();
        // The listener's close completes on the simulator's own thread: give it a moment, then
        // the port must refuse connections.
        Eventually.until("the port refuses connections", Duration.ofSeconds(10), () -> {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return false;
            } catch (ConnectException refused) {
                return true;
            } catch (java.io.IOException other) {
                return false;
            }
        });
        assertThat(nonDaemonThreads()).isSubsetOf(threadsBefore);
    }

    private static Set<String> nonDaemonThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(thread -> !thread.isDaemon() && thread.isAlive())
                .map(Thread::getName).collect(Collectors.toSet());
    }
}
