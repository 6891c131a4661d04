package bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.locks.LockSupport;

/**
 * The machine's floor under a thread hand-off: at a fixed rate, one thread wakes another that is
 * parked, and keeps running meanwhile, so the woken thread has to run on another core. Prints the
 * time from the wake-up call until the woken thread runs. Klave hands every request from its event
 * loop to the audit writer and back (a request is forwarded only once its row is durable, and the
 * event loop must not block on the database): two wake-ups that nginx and vertx-floor do not make.
 * On a virtual machine whose idle cores halt, waking one can wait for the host.
 */
final class WakeLatency {
    private static volatile long wokenAt;

    private WakeLatency() {}

    static ObjectNode run(Args args) throws Exception {
        int count = args.number("count", 4000);
        long intervalNanos = 1_000_000_000L / args.number("rate", 500);
        long[] took = new long[count];
        Thread parked = Thread.ofPlatform().daemon().name("bench-woken").start(() -> {
            for (int i = 0; i < count; i++) {
                long at;
                while ((at = wokenAt) == 0) {
                    LockSupport.park();
                }
                took[i] = System.nanoTime() - at;
                wokenAt = 0;
            }
        });
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long due = start + i * intervalNanos;
            // Spinning, not sleeping: the waker keeps its core, as a busy event loop would.
            while (System.nanoTime() < due || wokenAt != 0) {
                Thread.onSpinWait();
            }
            wokenAt = System.nanoTime();
            LockSupport.unpark(parked);
        }
        parked.join();
        return Latencies.put(Api.JSON.createObjectNode().put("wake_ups", count), took);
    }
}
