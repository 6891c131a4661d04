package bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Latency at a fixed request rate without coordinated omission: request i is due at
 * {@code start + i / rate}, and its latency is counted from that due time, not from when a
 * connection was free to send it. A slow answer so shows up in every request that queued behind
 * it, as it does for real clients (Gil Tene, "How NOT to measure latency").
 */
final class FixedRate {
    private FixedRate() {}

    static ObjectNode run(Args args) throws Exception {
        URI base = URI.create(args.text("url"));
        String path = args.text("path", "/api/v1/namespaces/default/pods");
        String authorization = args.text("token", "").isEmpty() ? "" : "Bearer " + args.text("token");
        int rate = args.number("rate", 500);
        int seconds = args.number("seconds", 10);
        int warmup = args.number("warmup", 2);
        int connections = args.number("connections", 32);
        long period = TimeUnit.SECONDS.toNanos(1) / rate;
        long total = (long) rate * (seconds + warmup);
        long skip = (long) rate * warmup;
        // --slow-ms N: print each measured request slower than N ms (for finding stalls by hand).
        long slowMicros = args.number("slow-ms", 0) * 1000L;

        Histogram latency = new ConcurrentHistogram(TimeUnit.SECONDS.toMicros(60), 3);
        AtomicLong next = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong unexpected = new AtomicLong();
        List<HttpConnection> pool = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            HttpConnection connection = new HttpConnection(base);
            connection.open();
            pool.add(connection);
        }
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        // A target far slower than the rate would stretch the run without end: past this, what is
        // left unsent is recorded with the latency it has at least (its wait so far) and not sent.
        long deadline = start + TimeUnit.SECONDS.toNanos(seconds + warmup + Math.max(2, seconds / 2));
        AtomicLong unsent = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (HttpConnection connection : pool) {
            // Platform threads: their sleeps wake on time; the virtual-thread scheduler would add its own delay.
            workers.add(Thread.ofPlatform().start(() -> {
                for (long i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                    long due = start + i * period;
                    if (System.nanoTime() > deadline) {
                        unsent.incrementAndGet();
                        if (i >= skip) {
                            latency.recordValue(Math.max(0, (System.nanoTime() - due) / 1_000));
                        }
                        continue;
                    }
                    for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                    }
                    try {
                        if (connection.get(path, authorization) != 200) {
                            unexpected.incrementAndGet();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                    if (i >= skip) {
                        long micros = Math.max(0, (System.nanoTime() - due) / 1_000);
                        latency.recordValue(micros);
                        if (slowMicros > 0 && micros > slowMicros) {
                            System.err.printf("slow: request %d due at %.3f s took %.1f ms%n", i,
                                    (due - start) / 1e9, micros / 1000.0);
                        }
                    }
                }
                connection.close();
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        ObjectNode out = Api.JSON.createObjectNode();
        out.put("rate", rate).put("requests", total - unsent.get()).put("measured", latency.getTotalCount())
                .put("achieved_rps", Math.round(total / elapsed)).put("errors", errors.get()).put("unsent_past_deadline", unsent.get())
                .put("non_200", unexpected.get())
                .put("p50_ms", millis(latency.getValueAtPercentile(50)))
                .put("p99_ms", millis(latency.getValueAtPercentile(99)))
                .put("p999_ms", millis(latency.getValueAtPercentile(99.9)))
                .put("max_ms", millis(latency.getMaxValue()))
                .put("mean_ms", Math.round(latency.getMean()) / 1000.0);
        return out;
    }

    private static double millis(long micros) {
        return micros / 1000.0;
    }
}
