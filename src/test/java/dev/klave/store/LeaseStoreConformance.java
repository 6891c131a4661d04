package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.storage.LeaseStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every {@link LeaseStore} must do, whatever the database behind it. */
abstract class LeaseStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(30);

    private LeaseStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiLeaseStore(database);
    }

    private static String lease() {
        return "test/" + UUID.randomUUID();
    }

    @Test
    void freeLeaseIsTakenAndThenRefusedToOthersUntilItExpires() {
        String lease = lease();

        assertThat(store.tryAcquire(lease, "replica-a", NOW, TTL)).isTrue();
        assertThat(store.tryAcquire(lease, "replica-b", NOW.plusSeconds(29), TTL)).isFalse();
        assertThat(store.tryAcquire(lease, "replica-b", NOW.plusSeconds(30), TTL)).isTrue();
        assertThat(store.tryAcquire(lease, "replica-a", NOW.plusSeconds(31), TTL)).isFalse();
    }

    @Test
    void holderRenewsItsLease() {
        String lease = lease();
        store.tryAcquire(lease, "replica-a", NOW, TTL);

        assertThat(store.tryAcquire(lease, "replica-a", NOW.plusSeconds(20), TTL)).isTrue();
        assertThat(store.tryAcquire(lease, "replica-b", NOW.plusSeconds(40), TTL)).isFalse();
    }

    @Test
    void onlyTheHolderCanReleaseALease() {
        String lease = lease();
        store.tryAcquire(lease, "replica-a", NOW, TTL);

        store.release(lease, "replica-b");
        assertThat(store.tryAcquire(lease, "replica-b", NOW.plusSeconds(1), TTL)).isFalse();

        store.release(lease, "replica-a");
        assertThat(store.tryAcquire(lease, "replica-b", NOW.plusSeconds(1), TTL)).isTrue();
    }

    @Test
    void replicasRacingForAFreeLeaseHaveExactlyOneWinner() throws Exception {
        String lease = lease();
        int replicas = 6;

        int winners = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(replicas)) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < replicas; i++) {
                String holder = "replica-" + i;
                results.add(pool.submit((Callable<Boolean>) () -> store.tryAcquire(lease, holder, NOW, TTL)));
            }
            for (Future<Boolean> result : results) {
                winners += result.get() ? 1 : 0;
            }
        }

        assertThat(winners).isEqualTo(1);
    }
}
