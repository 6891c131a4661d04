package dev.klave.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The sweeper of record waits, driven by a {@link TestingTicker}: tick, then assert. */
class RecordDeadlinesTest {
    private static final Duration WAIT = Duration.ofSeconds(2);

    private final TestingTicker ticker = new TestingTicker();
    private final RecordDeadlines deadlines = new RecordDeadlines(WAIT, ticker);

    @Test
    void nothingRunsUntilStartedAndNothingAfterClose() {
        assertThat(ticker.running()).as("the constructor starts nothing").isZero();

        deadlines.start();
        assertThat(ticker.running()).isEqualTo(1);

        deadlines.close();
        assertThat(ticker.running()).isZero();
        assertThatThrownBy(deadlines::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRowStillWaitingAtItsDeadlineIsFailedByTheNextSweepNotBefore() {
        deadlines.start();
        CompletableFuture<Long> durable = new CompletableFuture<>();
        deadlines.watch(durable);

        ticker.advance(WAIT.minusNanos(1));
        assertThat(durable).as("within the wait").isNotDone();

        ticker.advance(RecordDeadlines.SWEEP_EVERY);
        assertThat(durable).isCompletedExceptionally();
        assertThatThrownBy(durable::join).hasCauseInstanceOf(TimeoutException.class)
                .hasMessageContaining("audit row not durable within PT2S");
    }

    @Test
    void aRowFailsAtMostOneSweepAfterItsWaitRanOut() {
        deadlines.start();
        ticker.advance(RecordDeadlines.SWEEP_EVERY.dividedBy(2));
        CompletableFuture<Long> durable = new CompletableFuture<>();
        deadlines.watch(durable);

        ticker.advance(WAIT);
        assertThat(durable).as("its wait ran out half a sweep ago: the next sweep comes later").isNotDone();
        ticker.advance(RecordDeadlines.SWEEP_EVERY.dividedBy(2));
        assertThat(durable).isCompletedExceptionally();
    }

    @Test
    void aRowDurableInTimeIsLeftAsItIsAndLetGo() {
        deadlines.start();
        CompletableFuture<Long> durable = new CompletableFuture<>();
        deadlines.watch(durable);
        durable.complete(7L);

        ticker.advance(WAIT.multipliedBy(2));

        assertThat(durable).isCompletedWithValue(7L);
    }

    @Test
    void aSweepFailsEveryRowPastItsWaitAndStopsAtTheFirstStillWithinIt() {
        deadlines.start();
        CompletableFuture<Long> first = new CompletableFuture<>();
        CompletableFuture<Long> durableMeanwhile = new CompletableFuture<>();
        CompletableFuture<Long> second = new CompletableFuture<>();
        deadlines.watch(first);
        deadlines.watch(durableMeanwhile);
        deadlines.watch(second);
        ticker.advance(Duration.ofSeconds(1));
        CompletableFuture<Long> later = new CompletableFuture<>();
        deadlines.watch(later);
        durableMeanwhile.complete(1L);

        ticker.advance(Duration.ofSeconds(1));

        assertThat(first).isCompletedExceptionally();
        assertThat(durableMeanwhile).isCompletedWithValue(1L);
        assertThat(second).isCompletedExceptionally();
        assertThat(later).as("a second still to wait").isNotDone();

        ticker.advance(Duration.ofSeconds(1));
        assertThat(later).isCompletedExceptionally();
    }

    @Test
    void afterCloseNoSweepFailsAnything() {
        deadlines.start();
        CompletableFuture<Long> durable = new CompletableFuture<>();
        deadlines.watch(durable);
        deadlines.close();

        ticker.advance(WAIT.multipliedBy(3));

        assertThat(durable).isNotDone();
    }

    @Test
    void theWaitMustBePositive() {
        assertThatThrownBy(() -> new RecordDeadlines(Duration.ZERO, ticker))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("wait must be positive, got PT0S");
    }
}
