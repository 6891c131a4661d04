package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.LockState;
import dev.klave.account.LoginFailureStore;
import dev.klave.storage.RateWindowStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every {@link LoginFailureStore} and {@link RateWindowStore} must do, whatever the database. */
abstract class ThrottleStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final Instant LOCK_UNTIL = NOW.plus(Duration.ofMinutes(15));

    private LoginFailureStore failures;
    private RateWindowStore windows;

    @Override
    protected void setUp(Database database) {
        failures = new JdbiLoginFailureStore(database);
        windows = new JdbiRateWindowStore(database);
    }

    private static String login() {
        return "throttle-" + UUID.randomUUID();
    }

    @Test
    void fifthFailureLocksAndStartsCountingAgain() {
        String ana = login();
        for (int i = 1; i <= 4; i++) {
            assertThat(failures.recordFailure(ana, 5, LOCK_UNTIL)).isEqualTo(new LockState(i, Optional.empty()));
        }

        LockState locked = failures.recordFailure(ana, 5, LOCK_UNTIL);

        assertThat(locked).isEqualTo(new LockState(0, Optional.of(LOCK_UNTIL)));
        assertThat(failures.state(ana).lockedAt(LOCK_UNTIL.minusMillis(1))).isTrue();
        assertThat(failures.state(ana).lockedAt(LOCK_UNTIL)).isFalse();
    }

    @Test
    void aLoginThatNamesNoAccountIsCountedAndLockedAlike() {
        String nobody = "nobody-" + UUID.randomUUID();
        for (int i = 1; i <= 4; i++) {
            failures.recordFailure(nobody, 5, LOCK_UNTIL);
        }

        assertThat(failures.recordFailure(nobody, 5, LOCK_UNTIL).lockedUntil()).contains(LOCK_UNTIL);
        assertThat(failures.state(nobody).lockedAt(NOW)).isTrue();
        assertThat(failures.state("someone-else-" + UUID.randomUUID())).isEqualTo(LockState.CLEAR);
    }

    @Test
    void clearingForgetsFailuresAndLock() {
        String ana = login();
        failures.recordFailure(ana, 5, LOCK_UNTIL);

        failures.clear(ana);

        assertThat(failures.state(ana)).isEqualTo(LockState.CLEAR);
    }

    @Test
    void failuresRecordedAtOnceAreAllCounted() throws Exception {
        String ana = login();
        List<LockState> results = concurrently(4, () -> failures.recordFailure(ana, 5, LOCK_UNTIL));

        assertThat(results).extracting(LockState::failures).containsExactlyInAnyOrder(1, 2, 3, 4);
        assertThat(failures.recordFailure(ana, 5, LOCK_UNTIL).lockedUntil()).contains(LOCK_UNTIL);
    }

    @Test
    void hitsAreCountedPerBucketOverASlidingSpan() {
        String bucket = "test-ip:" + UUID.randomUUID();
        Duration minute = Duration.ofMinutes(1);
        Instant start = NOW.truncatedTo(java.time.temporal.ChronoUnit.MINUTES).plusSeconds(50);

        assertThat(windows.hit(bucket, start, minute)).isEqualTo(1);
        assertThat(windows.hit(bucket, start.plusMillis(300), minute)).isEqualTo(2);
        assertThat(windows.hit("other:" + bucket, start, minute)).isEqualTo(1);
        assertThat(windows.hit(bucket, start.plusSeconds(15), minute))
                .as("across the turn of the calendar minute, the earlier hits still count").isEqualTo(3);
        assertThat(windows.hit(bucket, start.plusSeconds(61), minute)).as("the first two are over a minute old")
                .isEqualTo(2);
        assertThat(windows.hit(bucket, start.plusSeconds(200), minute)).isEqualTo(1);
    }

    @Test
    void concurrentHitsAreAllCounted() throws Exception {
        String bucket = "test-ip:" + UUID.randomUUID();

        List<Integer> counts = concurrently(6, () -> windows.hit(bucket, NOW, Duration.ofMinutes(1)));

        assertThat(counts).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6);
    }

    private static <T> List<T> concurrently(int threads, Callable<T> work) throws Exception {
        List<T> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(work));
            }
            for (Future<T> future : futures) {
                results.add(future.get());
            }
        }
        return results;
    }
}
