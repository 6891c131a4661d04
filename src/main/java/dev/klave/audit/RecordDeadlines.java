package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Fails a request's wait for its audit row once the record wait has passed (a database that
 * hangs, a writer that stopped): its request is then refused instead of held.
 *
 * <p>One thread sweeps the rows in arrival order a few times a second, rather than a timer per
 * row: {@code CompletableFuture.orTimeout} schedules a task for each row and cancels it when the
 * row commits, which took a quarter more CPU per proxied request (bench/RESULTS.md, session 12).
 * A row is failed at most {@link #SWEEP_EVERY} after its wait ran out.
 */
final class RecordDeadlines {
    static final Duration SWEEP_EVERY = Duration.ofMillis(100);

    private record Watched(CompletableFuture<Long> durable, long deadlineNanos) {}

    private final ConcurrentLinkedQueue<Watched> watched = new ConcurrentLinkedQueue<>();
    private final Duration wait;
    private final long waitNanos;
    private final Thread sweeper;
    private volatile boolean closed;

    RecordDeadlines(Duration wait) {
        this.wait = requireNonNull(wait, "wait is null");
        this.waitNanos = wait.toNanos();
        if (waitNanos < 1) {
            throw new IllegalArgumentException("wait must be positive, got " + wait);
        }
        this.sweeper = Thread.ofPlatform().daemon().name("klave-audit-deadlines").start(this::run);
    }

    /** From now on, {@code durable} fails with a {@link TimeoutException} if not done within the wait. */
    void watch(CompletableFuture<Long> durable) {
        watched.add(new Watched(durable, System.nanoTime() + waitNanos));
    }

    private void run() {
        while (!closed) {
            LockSupport.parkNanos(SWEEP_EVERY.toNanos());
            sweep();
        }
    }

    /** Rows arrive in deadline order: the sweep stops at the first one still waiting within its wait. */
    private void sweep() {
        long now = System.nanoTime();
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

    void close() {
        closed = true;
        LockSupport.unpark(sweeper);
    }
}
