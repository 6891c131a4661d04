package dev.klave.testing;

import dev.klave.gateway.Ticker;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;

/** A {@link Ticker} the test drives: nothing runs until {@link #tick()}, which runs on the test's thread. */
public final class ManualTicker implements Ticker {
    private final Queue<Runnable> queued = new ArrayDeque<>();
    private Runnable tick;
    private boolean closed;

    @Override
    public synchronized void start(Runnable tick, Duration every) {
        if (this.tick != null) {
            throw new IllegalStateException("started twice");
        }
        this.tick = tick;
    }

    @Override
    public synchronized void execute(Runnable task) {
        if (closed || tick == null) {
            throw new RejectedExecutionException("not running");
        }
        queued.add(task);
    }

    /** Runs what was handed over since the last tick, then one tick. */
    public void tick() {
        runQueued();
        Runnable current;
        synchronized (this) {
            if (tick == null || closed) {
                throw new IllegalStateException("the ticker was not started, or is closed");
            }
            current = tick;
        }
        current.run();
    }

    /** Runs what was handed over ({@link #execute}) since the last tick, and no tick; returns how many ran. */
    public int runQueued() {
        int ran = 0;
        for (Runnable next; (next = poll()) != null; ran++) {
            next.run();
        }
        return ran;
    }

    /** Runs {@link #tick()} {@code times} times. */
    public void tick(int times) {
        for (int i = 0; i < times; i++) {
            tick();
        }
    }

    private synchronized Runnable poll() {
        return queued.poll();
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
