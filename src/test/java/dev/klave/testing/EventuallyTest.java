package dev.klave.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The waits every other test relies on fail, and say what they waited for, when the condition does not come. */
class EventuallyTest {
    @Test
    void untilReturnsOnceTheConditionHolds() {
        AtomicInteger looks = new AtomicInteger();

        Eventually.until("the third look", Duration.ofSeconds(5), () -> looks.incrementAndGet() >= 3);

        assertThat(looks).hasValue(3);
    }

    @Test
    void untilFailsAtTheDeadlineNamingWhatItAwaited() {
        assertThatThrownBy(() -> Eventually.until("a row written", Duration.ofMillis(100), () -> false))
                .isInstanceOf(AssertionError.class).hasMessage("waited 100 ms for a row written");
    }

    @Test
    void stillTrueForLooksThroughoutThePeriod() {
        AtomicInteger looks = new AtomicInteger();
        long started = System.nanoTime();

        Eventually.stillTrueFor("nothing written", Duration.ofMillis(200), () -> looks.incrementAndGet() > 0);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(looks.get()).as("looked more than once").isGreaterThan(2);
    }

    @Test
    void stillTrueForFailsAsSoonAsTheConditionStopsHolding() {
        AtomicInteger looks = new AtomicInteger();
        long started = System.nanoTime();

        assertThatThrownBy(() -> Eventually.stillTrueFor("the completion held", Duration.ofSeconds(30),
                () -> looks.incrementAndGet() < 3))
                .isInstanceOf(AssertionError.class).hasMessageStartingWith("no longer true after ")
                .hasMessageEndingWith(" ms of 30000: the completion held");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }
}
