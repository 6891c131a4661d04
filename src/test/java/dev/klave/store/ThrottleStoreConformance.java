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
    void callsServedAreCountedPerBucketOverASlidingSpanUpToTheLimit() {
        String bucket = "test-ip:" + UUID.randomUUID();
        Duration minute = Duration.ofMinutes(1);
        Instant start = NOW.truncatedTo(java.time.temporal.ChronoUnit.MINUTES).plusSeconds(50);

        assertThat(windows.admit(bucket, start, minute, 3)).isEmpty();
        assertThat(windows.admit(bucket, start.plusMillis(300), minute, 3)).isEmpty();
        assertThat(windows.admit("other:" + bucket, start, minute, 1)).as("another bucket").isEmpty();
        assertThat(windows.admit(bucket, start.plusSeconds(15), minute, 3))
                .as("across the turn of the calendar minute, the earlier calls still count").isEmpty();
        assertThat(windows.admit(bucket, start.plusSeconds(16), minute, 3)).as("the limit reached")
                .contains(Duration.ofSeconds(44));
        assertThat(windows.admit(bucket, start.plusSeconds(60), minute, 3)).as("the first two are a minute old")
                .isEmpty();
        assertThat(windows.admit(bucket, start.plusSeconds(200), minute, 1)).isEmpty();
    }

    /** The rate-limit issue: every refused call counted, so a client retrying every 5 s stayed refused for ever. */
    @Test
    void aRefusedCallCountsNothingSoAPatientClientIsServedWhenItIsToldTo() {
        String bucket = "test-mcp:" + UUID.randomUUID();
        Duration minute = Duration.ofMinutes(1);
        Instant start = NOW.truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        for (int i = 0; i < 10; i++) {
            assertThat(windows.admit(bucket, start, minute, 10)).isEmpty();
        }
        Optional<Duration> wait = Optional.empty();
        for (int retry = 1; retry <= 11; retry++) {
            wait = windows.admit(bucket, start.plusSeconds(5L * retry), minute, 10);
            assertThat(wait).as("retry %s", retry).isPresent();
        }

        Instant told = start.plusSeconds(55).plus(wait.orElseThrow());
        assertThat(told).isEqualTo(start.plusSeconds(60));
        assertThat(windows.admit(bucket, told, minute, 10)).as("served when told, however often it retried")
                .isEmpty();
    }

    @Test
    void concurrentCallsAreServedExactlyUpToTheLimit() throws Exception {
        String bucket = "test-ip:" + UUID.randomUUID();

        List<Optional<Duration>> answers = concurrently(8, () -> windows.admit(bucket, NOW, Duration.ofMinutes(1), 5));

        assertThat(answers.stream().filter(Optional::isEmpty).count()).isEqualTo(5);
        assertThat(answers.stream().filter(Optional::isPresent).count()).isEqualTo(3);
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
