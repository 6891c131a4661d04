package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link Ticker} the test drives: time stands still until {@link #advance}, which then runs every
 * beat that came due, on the test's own thread, before it returns — so "tick, then assert" needs
 * no sleep and no waiting.
 */
final class TestingTicker implements Ticker {
    private final List<TestingBeat> beats = new CopyOnWriteArrayList<>();
    private long now = 1_000_000_000L;

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public Beat every(Duration period, Runnable tick) {
        TestingBeat beat = new TestingBeat(requireNonNull(period, "period is null").toNanos(),
                requireNonNull(tick, "tick is null"), nanoTime());
        beats.add(beat);
        return beat;
    }

    /** Moves time by {@code by}, running each running beat once per period that passed, in time order. */
    void advance(Duration by) {
        long target;
        synchronized (this) {
            target = now + by.toNanos();
        }
        while (true) {
            TestingBeat next = null;
            for (TestingBeat beat : beats) {
                if (!beat.stopped && beat.due - target <= 0 && (next == null || beat.due - next.due < 0)) {
                    next = beat;
                }
            }
            if (next == null) {
                break;
            }
            synchronized (this) {
                now = next.due;
            }
            next.due += next.period;
            next.tick.run();
        }
        synchronized (this) {
            now = target;
        }
    }

    /** How many beats were started and not stopped. */
    long running() {
        return beats.stream().filter(beat -> !beat.stopped).count();
    }

    private static final class TestingBeat implements Beat {
        private final long period;
        private final Runnable tick;
        private long due;
        private volatile boolean stopped;

        private TestingBeat(long period, Runnable tick, long startedAt) {
            this.period = period;
            this.tick = tick;
            this.due = startedAt + period;
        }

        @Override
        public void stop() {
            stopped = true;
        }
    }
}
