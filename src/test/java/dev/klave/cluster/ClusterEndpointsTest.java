package dev.klave.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingTls;
import java.io.IOException;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The one owner of the clusters' clients: one client per kind, cluster and variant for the secrets
 * it was built from, known by their content; new secrets build a new one and let the old go; a
 * deleted cluster, here or elsewhere, lets all of its go.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterEndpointsTest {
    private static final ClusterId PROD = new ClusterId("prod-1");
    private static final ClusterId TEST = new ClusterId("test-1");

    private ClusterSimulator cluster;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    private BootstrapSecrets secrets(String token) {
        return BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), token, "reconciler-" + token);
    }

    /** A kind whose clients are numbers, counting the builds and remembering what was let go. */
    private record Counting(ClusterEndpoints.Kind<Integer> kind, AtomicInteger built, List<Integer> closed) {
        static Counting make() {
            AtomicInteger built = new AtomicInteger();
            List<Integer> closed = new ArrayList<>();
            return new Counting(new ClusterEndpoints.Kind<>("counting", secrets -> built.incrementAndGet(),
                    closed::add), built, closed);
        }
    }

    @Test
    void aClientIsBuiltOncePerSecretsAndNewSecretsLetTheOldOneGo() {
        ClusterEndpoints endpoints = new ClusterEndpoints();
        Counting counting = Counting.make();
        BootstrapSecrets first = secrets("a");
        BootstrapSecrets second = secrets("b");

        int one = endpoints.client(counting.kind(), PROD, "", first);
        int again = endpoints.client(counting.kind(), PROD, "", first);
        int renewed = endpoints.client(counting.kind(), PROD, "", second);

        assertThat(again).isEqualTo(one);
        assertThat(renewed).isNotEqualTo(one);
        assertThat(counting.closed()).containsExactly(one);
        assertThat(counting.built().get()).isEqualTo(2);
    }

    @Test
    void equalSecretsReadTwiceKeepOneClient() {
        ClusterEndpoints endpoints = new ClusterEndpoints();
        Counting counting = Counting.make();
        // What a bootstrap sealed, opened twice: another replica sealed the same JSON again, or the
        // opened secrets were read anew — two objects, one content.
        TokenVault vault = new TokenVault(new byte[32], new SecureRandom());
        String sealedOnce = vault.seal(PROD, secrets("a"));
        String sealedAgain = vault.seal(PROD, secrets("a"));
        BootstrapSecrets read = vault.open(PROD, sealedOnce);
        BootstrapSecrets readAgain = vault.open(PROD, sealedAgain);
        assertThat(sealedAgain).isNotEqualTo(sealedOnce);
        assertThat(readAgain).isNotSameAs(read);

        int one = endpoints.client(counting.kind(), PROD, "", read);
        int again = endpoints.client(counting.kind(), PROD, "", readAgain);

        assertThat(again).isEqualTo(one);
        assertThat(counting.built().get()).isEqualTo(1);
        assertThat(counting.closed()).isEmpty();
    }

    @Test
    void anyChangedPartOfTheSecretsBuildsANewClientAndClosesTheOld() throws IOException {
        String otherCa = Files.readString(TestingTls.generate().certificate());
        List<BootstrapSecrets> changes = List.of(
                BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), "a", "reconciler-a"),
                BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), "b", "reconciler-a"),
                BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), "b", "reconciler-b"),
                BootstrapSecrets.of(cluster.url(), otherCa, "b", "reconciler-b"),
                BootstrapSecrets.of("https://127.0.0.2:" + cluster.port(), otherCa, "b", "reconciler-b"));
        ClusterEndpoints endpoints = new ClusterEndpoints();
        Counting counting = Counting.make();

        List<Integer> clients = new ArrayList<>();
        for (BootstrapSecrets secrets : changes) {
            clients.add(endpoints.client(counting.kind(), PROD, "", secrets));
        }

        assertThat(clients).as("a client per change").doesNotHaveDuplicates();
        assertThat(counting.closed()).as("each replaced one closed, the last kept")
                .containsExactlyElementsOf(clients.subList(0, clients.size() - 1));
        assertThat(endpoints.size()).isEqualTo(1);
    }

    @Test
    void aTokenAndTheNextPartCannotTradeCharacters() {
        // The fingerprint hashes each part with its length: "ab" + "c" is not "a" + "bc".
        BootstrapSecrets one = BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), "ab", "c");
        BootstrapSecrets other = BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), "a", "bc");

        assertThat(one.fingerprint()).isNotEqualTo(other.fingerprint());
        assertThat(one.fingerprint()).isEqualTo(
                BootstrapSecrets.of(cluster.url(), cluster.caCertificatePem(), "ab", "c").fingerprint());
        assertThat(one.fingerprint().toString()).doesNotContain(one.fingerprint().sha256());
    }

    @Test
    void variantsAndKindsAreKeptApart() {
        ClusterEndpoints endpoints = new ClusterEndpoints();
        Counting requests = Counting.make();
        Counting streams = Counting.make();
        BootstrapSecrets secrets = secrets("a");

        endpoints.client(requests.kind(), PROD, "loop-1", secrets);
        endpoints.client(requests.kind(), PROD, "loop-2", secrets);
        endpoints.client(streams.kind(), PROD, "loop-1", secrets);

        assertThat(endpoints.size()).isEqualTo(3);
    }

    @Test
    void aDeletedClusterLetsEveryClientOfItsGoAndOnlyThose() {
        ClusterEndpoints endpoints = new ClusterEndpoints();
        Counting counting = Counting.make();
        int prod = endpoints.client(counting.kind(), PROD, "", secrets("a"));
        int test = endpoints.client(counting.kind(), TEST, "", secrets("b"));

        endpoints.forget(PROD);
        assertThat(counting.closed()).containsExactly(prod);
        endpoints.retainOnly(Set.of());
        assertThat(counting.closed()).containsExactly(prod, test);
        assertThat(endpoints.size()).isZero();
    }
}
