package bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;

/** Percentiles of latencies measured one by one (few enough to keep them all and sort them). */
final class Latencies {
    private Latencies() {}

    /** Sorts {@code nanos} and puts p50, p99, p99.9 and max, in milliseconds, into {@code figures}. */
    static ObjectNode put(ObjectNode figures, long[] nanos) {
        Arrays.sort(nanos);
        int count = nanos.length;
        return figures.put("p50_ms", millis(nanos[count / 2])).put("p99_ms", millis(nanos[count * 99 / 100]))
                .put("p999_ms", millis(nanos[count * 999 / 1000])).put("max_ms", millis(nanos[count - 1]));
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 1e3) / 1e3;
    }
}
