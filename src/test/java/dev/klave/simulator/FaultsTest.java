package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fault switches, as kubectl experiences them, and the way back with {@code healthy()}. */
class FaultsTest {
    private static ClusterSimulator cluster;
    private static Kubectl admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder().start();
        admin = new Kubectl(cluster, cluster.adminToken());
    }

    @AfterEach
    void heal() {
        cluster.healthy();
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @Test
    void downRefusesConnectionsUntilHealthyAgainOnTheSamePort() {
        int port = cluster.port();

        cluster.down();
        Kubectl.Result refused = admin.run("get", "ns", "default");
        cluster.healthy();
        Kubectl.Result back = admin.run("get", "ns", "default");

        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.stderr()).contains("The connection to the server 127.0.0.1:" + port
                + " was refused - did you specify the right host or port?");
        assertThat(back.exitCode()).as(back.stderr()).isZero();
        assertThat(cluster.port()).isEqualTo(port);
    }

    @Test
    void aCertificateFromAnotherCaFailsKubectlsVerification() {
        cluster.wrongCertificate();
        Kubectl.Result rejected = admin.run("get", "ns", "default");
        cluster.healthy();
        Kubectl.Result back = admin.run("get", "ns", "default");

        assertThat(rejected.exitCode()).isEqualTo(1);
        assertThat(rejected.stderr()).contains("tls: failed to verify certificate: x509: certificate signed by unknown authority");
        assertThat(back.exitCode()).as(back.stderr()).isZero();
    }

    @Test
    void slowDelaysEveryAnswer() {
        SimulatorClient client = new SimulatorClient(cluster, cluster.adminToken());
        cluster.slow(Duration.ofMillis(600));

        Instant before = Instant.now();
        SimulatorClient.Response response = client.get("/api/v1/namespaces/default");
        Duration took = Duration.between(before, Instant.now());
        Kubectl.Result timedOut = admin.run("get", "ns", "default", "--request-timeout=200ms");

        assertThat(response.status()).isEqualTo(200);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(600));
        assertThat(timedOut.exitCode()).isEqualTo(1);
        assertThat(timedOut.stderr()).containsAnyOf("context deadline exceeded", "Client.Timeout exceeded", "i/o timeout");
    }
}
