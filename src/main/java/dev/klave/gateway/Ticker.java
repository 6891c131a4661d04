package dev.klave.gateway;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one thread a periodic guard runs on: its ticks and the work handed to it between ticks. A
 * seam so that tests drive the ticks themselves instead of sleeping past them.
 */
public interface Ticker extends AutoCloseable {
    /** From now on, runs {@code tick} every {@code every} on the ticker's thread. */
    void start(Runnable tick, Duration every);

    /**
     * Runs {@code task} on the ticker's thread, after what is already queued there.
     *
     * @throws RejectedExecutionException once closed
     */
    void execute(Runnable task);

    @Override
    void close();

    /** A daemon platform thread named {@code name}, started by {@link #start}. */
    static Ticker thread(String name) {
        return new Ticker() {
            private ScheduledExecutorService scheduler;
            private boolean closed;

            @Override
            public synchronized void start(Runnable tick, Duration every) {
                if (scheduler != null || closed) {
                    throw new IllegalStateException("ticker " + name + " already started or closed");
                }
                scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name(name).factory());
                scheduler.scheduleWithFixedDelay(tick, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
            }

            @Override
            public synchronized void execute(Runnable task) {
                if (scheduler == null) {
                    throw new RejectedExecutionException("ticker " + name + " is not running");
                }
                scheduler.execute(task);
            }

            @Override
            public synchronized void close() {
                closed = true;
                if (scheduler != null) {
                    scheduler.shutdownNow();
                }
            }
        };
    }
}
