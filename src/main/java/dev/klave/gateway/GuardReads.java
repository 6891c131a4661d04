package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.storage.DatabaseUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The stream guard's reads of the database, each pass of the guard waiting {@code wait} at most
 * for all of them together. Used by one thread at a time: the guard's.
 *
 * <p>A bound of the guard's own, not a shorter HikariCP {@code connectionTimeout}: the pool's is
 * global, so shortening it would answer 503 sooner to every request that waits for a busy pool
 * (a busy database is a wait, never a 5xx), and it bounds only getting a connection, not a query
 * on a connection that stopped answering. Only the guard needs an answer by a deadline: the time
 * an open stream may stay unchecked counts from its last check that passed ({@link OpenCalls}),
 * and a wait with no bound — the pool's 5 s for each of several passes — ran past spec 1 §8's
 * 10 s (issue 51 §6b: watches cut 14 to 18 s after a revocation on another replica).
 *
 * <p>A read runs on a virtual thread of its own while the guard waits for it. Past the pass's
 * deadline it is interrupted — which ends a wait for a pooled connection, and closes the socket a
 * virtual thread is blocked reading — and counts as the database being away. Reads never pile up
 * on a database that hangs: while an earlier read has not ended, the next waits for it within its
 * own deadline instead of starting another. When the database answers at once, as it does while
 * it is up, the cost is one thread hop per read (about 20 µs, on a pass a second).
 *
 * <p>The deadline is real time ({@link System#nanoTime()}), not the injected clock: it bounds a
 * real wait. The rule it serves — how long a stream may go unchecked — reads the clock, in
 * {@link OpenCalls}, so tests still move that time by hand.
 */
final class GuardReads {
    private final Duration wait;
    /**
     * The last read started; it may outlive its pass when it ignores the interrupt. Volatile
     * although one thread reads passes: a ticker driven by hand may tick from another.
     */
    private volatile Thread reading;

    GuardReads(Duration wait) {
        this.wait = requireNonNull(wait, "wait is null");
        if (wait.isNegative() || wait.isZero()) {
            throw new IllegalArgumentException("wait must be positive: " + wait);
        }
    }

    /** The reads of one pass of the guard, {@code wait} from now at most. */
    Pass pass() {
        return new Pass(System.nanoTime() + wait.toNanos());
    }

    /** One pass's reads: one deadline, and once the database was found away, no more asking. */
    final class Pass {
        private final long deadline;
        private Optional<String> away = Optional.empty();

        private Pass(long deadline) {
            this.deadline = deadline;
        }

        /**
         * The answer of {@code read}, or what it threw.
         *
         * @throws DatabaseUnavailableException when it threw that, when no answer came by the pass's
         *     deadline, or when an earlier read of this pass found the database away (asking again
         *     would only wait again)
         */
        <T> T read(Supplier<T> read) {
            if (away.isPresent()) {
                throw new DatabaseUnavailableException(away.get(), null);
            }
            try {
                return answer(read);
            } catch (DatabaseUnavailableException e) {
                away = Optional.of(e.getMessage());
                throw e;
            }
        }

        private <T> T answer(Supplier<T> read) {
            awaitEarlierRead();
            FutureTask<T> task = new FutureTask<>(read::get);
            reading = Thread.ofVirtual().name("klave-stream-guard-read").start(task);
            try {
                return task.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                task.cancel(true);
                throw new DatabaseUnavailableException("no answer within " + wait.toMillis() + " ms", e);
            } catch (ExecutionException e) {
                // What the read threw, as if it had run here: a refusal, an outage, a defect.
                if (e.getCause() instanceof RuntimeException thrown) {
                    throw thrown;
                }
                if (e.getCause() instanceof Error thrown) {
                    throw thrown;
                }
                throw new IllegalStateException("a read of the stream guard failed", e.getCause());
            } catch (InterruptedException e) {
                // The guard is stopping (its ticker closed): nothing was learnt.
                task.cancel(true);
                Thread.currentThread().interrupt();
                throw new DatabaseUnavailableException("the stream guard stopped while waiting", e);
            }
        }

        private void awaitEarlierRead() {
            Thread earlier = reading;
            if (earlier == null || !earlier.isAlive()) {
                return;
            }
            long left = deadline - System.nanoTime();
            try {
                if (left <= 0 || !earlier.join(Duration.ofNanos(left))) {
                    throw new DatabaseUnavailableException("an earlier read still waits for the database", null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DatabaseUnavailableException("the stream guard stopped while waiting", e);
            }
        }
    }
}
