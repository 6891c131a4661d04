package dev.klave.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop load: {@code clients} virtual threads, each calling as soon as its previous call
 * answered, for a fixed time; every call's duration kept (the benchmarks' percentiles).
 */
final class ClosedLoop {
    private ClosedLoop() {}

    /** One call of client {@code client}; false (or an exception) counts as an error. */
    interface Action {
        boolean run(int client) throws Exception;
    }

    /** What one loop measured. */
    record Measured(long calls, long errors, double seconds, long[] nanos) {
        /** The duration at {@code at} (0.50, 0.99) in milliseconds. */
        double percentile(double at) {
            long[] sorted = Arrays.copyOf(nanos, (int) Math.min(nanos.length, calls));
            Arrays.sort(sorted);
            return sorted.length == 0 ? Double.NaN
                    : sorted[Math.min(sorted.length - 1, (int) Math.ceil(at * sorted.length) - 1)] / 1e6;
        }
    }

    static Measured run(int clients, int seconds, Action action) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        long[] nanos = new long[2_000_000];
        AtomicLong count = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        CountDownLatch done = new CountDownLatch(clients);
        long started = System.nanoTime();
        for (int i = 0; i < clients; i++) {
            int client = i;
            Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < end) {
                    long at = System.nanoTime();
                    boolean ok;
                    try {
                        ok = action.run(client);
                    } catch (Exception e) {
                        ok = false;
                    }
                    long index = count.getAndIncrement();
                    if (index < nanos.length) {
                        nanos[(int) index] = System.nanoTime() - at;
                    }
                    if (!ok) {
                        errors.incrementAndGet();
                    }
                }
                done.countDown();
            });
        }
        done.await();
        return new Measured(count.get(), errors.get(), (System.nanoTime() - started) / 1e9, nanos);
    }
}
