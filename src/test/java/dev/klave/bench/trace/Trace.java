package dev.klave.bench.trace;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What {@link CallTraceAgent} writes to: every method of Klave's main code entered while a window
 * is open, on any thread, with how many times. A measuring tool only: never on a served path.
 */
public final class Trace {
    private static volatile boolean open;
    private static final Map<String, LongAdder> ENTERED = new ConcurrentHashMap<>();

    private Trace() {}

    /** Called first thing in every instrumented method: {@code owner#method}. */
    public static void enter(String method) {
        if (open) {
            ENTERED.computeIfAbsent(method, ignored -> new LongAdder()).increment();
        }
    }

    /** Clears what was seen and opens a window. */
    public static void start() {
        ENTERED.clear();
        open = true;
    }

    /** Closes the window: each method entered in it, and how many times. */
    public static Map<String, Long> stop() {
        open = false;
        Map<String, Long> seen = new ConcurrentHashMap<>();
        ENTERED.forEach((method, count) -> seen.put(method, count.sum()));
        return seen;
    }
}
