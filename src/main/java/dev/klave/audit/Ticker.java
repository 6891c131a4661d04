package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * What drives a background sweep: the monotonic time it compares deadlines with, and the beat it
 * runs on. In production a parked thread of its own ({@link #system()}); in tests a hand-driven
 * ticker, so a test moves time and sweeps instead of sleeping until a thread comes round.
 */
interface Ticker {
    /** Monotonic nanoseconds, as {@link System#nanoTime()}: only differences mean anything. */
    long nanoTime();

    /** Calls {@code tick} every {@code period} from now on, until the returned beat is stopped. */
    Beat every(Duration period, Runnable tick);

    /** A running beat; stopping it ends the calls (a tick under way may still finish). */
    interface Beat {
        void stop();
    }

    /** {@link System#nanoTime()} and one daemon platform thread per beat, parked between ticks. */
    static Ticker system(String threadName) {
        requireNonNull(threadName, "threadName is null");
        return new Ticker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public Beat every(Duration period, Runnable tick) {
                ParkedBeat beat = new ParkedBeat(threadName, period, tick);
                beat.thread.start();
                return beat;
            }
        };
    }

    /** The production beat: a thread parked between ticks, and the flag that ends it. */
    final class ParkedBeat implements Beat {
        private final Thread thread;
        private volatile boolean stopped;

        private ParkedBeat(String name, Duration period, Runnable tick) {
            long periodNanos = requireNonNull(period, "period is null").toNanos();
            requireNonNull(tick, "tick is null");
            this.thread = Thread.ofPlatform().daemon().name(name).unstarted(() -> {
                while (!stopped) {
                    LockSupport.parkNanos(periodNanos);
                    if (!stopped) {
                        tick.run();
                    }
                }
            });
        }

        @Override
        public void stop() {
            stopped = true;
            LockSupport.unpark(thread);
        }
    }
}
