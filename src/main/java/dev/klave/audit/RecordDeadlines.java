package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;

/**
 * Fails a request's wait for its audit row once the record wait has passed (a database that
 * hangs, a writer that stopped): its request is then refused instead of held.
 *
 * <p>One beat sweeps the rows in arrival order a few times a second, rather than a timer per
 * row: {@code CompletableFuture.orTimeout} schedules a task for each row and cancels it when the
 * row commits, which took a quarter more CPU per proxied request (bench/RESULTS.md, session 12).
 * A row is failed at most {@link #SWEEP_EVERY} after its wait ran out.
 *
 * <p>The beat and the time come from a {@link Ticker}; nothing runs until {@link #start()}, and
 * {@link #close()} stops it.
 */
final class RecordDeadlines {
    static final Duration SWEEP_EVERY = Duration.ofMillis(100);

    private record Watched(CompletableFuture<Long> durable, long deadlineNanos) {}

    private final ConcurrentLinkedQueue<Watched> watched = new ConcurrentLinkedQueue<>();
    private final Duration wait;
    private final long waitNanos;
    private final Ticker ticker;
    private Ticker.Beat beat;
    private boolean closed;

    RecordDeadlines(Duration wait, Ticker ticker) {
        this.wait = requireNonNull(wait, "wait is null");
        this.ticker = requireNonNull(ticker, "ticker is null");
        this.waitNanos = wait.toNanos();
        if (waitNanos < 1) {
            throw new IllegalArgumentException("wait must be positive, got " + wait);
        }
    }

    /** Starts the sweeps; once only, and not after {@link #close()}. */
    synchronized void start() {
        if (closed) {
            throw new IllegalStateException("record deadlines closed");
        }
        if (beat != null) {
            throw new IllegalStateException("record deadlines already started");
        }
        beat = ticker.every(SWEEP_EVERY, this::sweep);
    }

    /** From now on, {@code durable} fails with a {@link TimeoutException} if not done within the wait. */
    void watch(CompletableFuture<Long> durable) {
        watched.add(new Watched(durable, ticker.nanoTime() + waitNanos));
    }

    /** Rows arrive in deadline order: the sweep stops at the first one still waiting within its wait. */
    private void sweep() {
        long now = ticker.nanoTime();
        for (Watched head; (head = watched.peek()) != null; ) {
            if (!head.durable().isDone() && now - head.deadlineNanos() < 0) {
                return;
            }
            watched.poll();
            if (!head.durable().isDone()) {
                head.durable().completeExceptionally(new TimeoutException("audit row not durable within " + wait));
            }
        }
    }

    synchronized void close() {
        closed = true;
        if (beat != null) {
            beat.stop();
        }
    }
}
