package dev.klave.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.simulator.ClusterSimulator;
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
 * it was built from; new secrets build a new one and let the old go; a deleted cluster, here or
 * elsewhere, lets all of its go.
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
