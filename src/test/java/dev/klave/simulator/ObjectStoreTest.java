package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store under concurrent writers and watchers: one ordered revision, nothing lost or doubled. */
class ObjectStoreTest {
    private final ObjectStore store = new ObjectStore(Clock.systemUTC());
    private final SimulatorObjects objects = new SimulatorObjects(store);

    @Test
    void concurrentWritersGetDistinctIncreasingRevisionsAndAWatcherSeesEveryEventInOrder() throws Exception {
        objects.put("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"busy\"}}");
        WatchSubscription watch = store.watch(ResourceCatalog.CONFIG_MAPS, Optional.of("busy"),
                Optional.of(store.revision()), object -> true, 10_000);
        int writers = 8;
        int writesEach = 100;

        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int writer = 0; writer < writers; writer++) {
                int id = writer;
                pool.submit(() -> {
                    for (int i = 0; i < writesEach; i++) {
                        objects.put("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"w" + id
                                + "\",\"namespace\":\"busy\"},\"data\":{\"i\":\"" + i + "\"}}");
                    }
                });
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }

        List<Long> revisions = new ArrayList<>();
        for (Optional<ObjectStore.StoredEvent> event = watch.next(Duration.ZERO); event.isPresent();
                event = watch.next(Duration.ZERO)) {
            revisions.add(Long.parseLong(event.get().object().at("/metadata/resourceVersion").asText()));
        }
        assertThat(revisions).hasSize(writers * writesEach).isSorted().doesNotHaveDuplicates();
        assertThat(objects.list("configmaps", "busy")).hasSize(writers)
                .allSatisfy(object -> assertThat(object.at("/data/i").asText()).isEqualTo(Integer.toString(writesEach - 1)));
    }

    @Test
    void aWatcherThatFallsBehindIsEndedInsteadOfGrowingWithoutBound() throws InterruptedException {
        objects.put("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"slow\"}}");
        WatchSubscription watch = store.watch(ResourceCatalog.CONFIG_MAPS, Optional.empty(), Optional.of(store.revision()),
                object -> true, 3);

        for (int i = 0; i < 5; i++) {
            objects.put("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c" + i + "\",\"namespace\":\"slow\"}}");
        }

        assertThat(store.watchCount()).isZero();
        int delivered = 0;
        while (watch.next(Duration.ZERO).isPresent()) {
            delivered++;
        }
        assertThat(delivered).isEqualTo(3);
        assertThat(watch.ended()).isTrue();
    }

    @Test
    void anUnchangedWriteKeepsTheResourceVersion() {
        objects.put("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"calm\"}}");
        ObjectNode first = objects.put("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"same\",\"namespace\":\"calm\"}}");
        ObjectNode second = objects.put("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"same\",\"namespace\":\"calm\"}}");

        assertThat(second.at("/metadata/resourceVersion")).isEqualTo(first.at("/metadata/resourceVersion"));
        assertThat(second.at("/metadata/uid")).isEqualTo(first.at("/metadata/uid"));
    }

    @Test
    void objectsCannotBeCreatedInAMissingNamespaceAndDeletingANamespaceDeletesItsObjects() {
        assertThatThrownBy(() -> objects.put(
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\",\"namespace\":\"nowhere\"}}"))
                .hasMessage("namespaces \"nowhere\" not found");
        objects.put("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"gone\"}}");
        objects.put("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\",\"namespace\":\"gone\"}}");

        objects.delete("namespaces", "", "gone");

        assertThat(objects.get("configmaps", "gone", "x")).isEmpty();
    }
}
