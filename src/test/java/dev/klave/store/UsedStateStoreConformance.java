package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.storage.UsedStateStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every {@link UsedStateStore} must do, whatever the database (spec 2 §5 rule 1: a state serves once). */
abstract class UsedStateStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final Instant EXPIRY = NOW.plus(Duration.ofMinutes(10));

    private UsedStateStore states;

    @Override
    protected void setUp(Database database) {
        states = new JdbiUsedStateStore(database);
    }

    private static String stateHash() {
        return "hash-" + UUID.randomUUID();
    }

    @Test
    void aStateIsUsedOnceUntilItsCookieExpires() {
        String state = stateHash();

        assertThat(states.use(state, NOW, EXPIRY)).isTrue();
        assertThat(states.use(state, NOW.plusSeconds(1), EXPIRY)).as("replayed").isFalse();
        assertThat(states.use(state, EXPIRY, EXPIRY)).as("still kept at its expiry").isFalse();
        assertThat(states.use(stateHash(), NOW, EXPIRY)).as("another state").isTrue();
    }

    @Test
    void aUsedValueReadsAsUsedUntilItIsForgotten() {
        String state = stateHash();

        assertThat(states.used(state, NOW)).isFalse();
        states.use(state, NOW, EXPIRY);
        assertThat(states.used(state, NOW.plusSeconds(1))).isTrue();
        assertThat(states.used(state, EXPIRY.plusSeconds(1))).isFalse();
    }

    @Test
    void expiredStatesAreForgottenByTheNextUse() {
        String old = stateHash();
        states.use(old, NOW, EXPIRY);

        states.use(stateHash(), EXPIRY.plusMillis(1), EXPIRY.plus(Duration.ofMinutes(10)));

        int kept = database().withHandle(handle -> handle.createQuery(
                        "SELECT COUNT(*) FROM used_sign_in_states WHERE state_hash = :hash")
                .bind("hash", old).mapTo(Integer.class).one());
        assertThat(kept).isZero();
    }

    @Test
    void ofCallbacksWithOneStateAtOnceOnlyOnePasses() throws Exception {
        String state = stateHash();
        List<Boolean> passed = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(6)) {
            List<Future<Boolean>> futures = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                futures.add(pool.submit(() -> states.use(state, NOW, EXPIRY)));
            }
            for (Future<Boolean> future : futures) {
                passed.add(future.get());
            }
        }

        assertThat(passed).containsOnlyOnce(true);
    }
}
