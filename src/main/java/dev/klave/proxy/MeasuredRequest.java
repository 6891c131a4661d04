package dev.klave.proxy;

import dev.klave.gateway.Span;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.IntConsumer;

/**
 * One proxied request as its meters see it: when it arrived, its verb, and — once admission found
 * it — its registered cluster. Counted once, with the status of whichever ending came first (the
 * gateway's {@link dev.klave.gateway.Ending}, or a refusal at admission), like its audit row.
 */
final class MeasuredRequest implements IntConsumer {
    private static final AtomicIntegerFieldUpdater<MeasuredRequest> COUNTED =
            AtomicIntegerFieldUpdater.newUpdater(MeasuredRequest.class, "counted");

    private final ProxyMeters meters;
    private final long startedNanos;
    private final String verb;
    private final boolean timed;
    private volatile String cluster = ProxyMeters.UNKNOWN;
    @SuppressWarnings("unused") // through COUNTED
    private volatile int counted;

    /** @param span a long-lived call's duration is no latency: it is counted, not timed */
    MeasuredRequest(ProxyMeters meters, long startedNanos, String verb, Span span) {
        this.meters = meters;
        this.startedNanos = startedNanos;
        this.verb = verb;
        this.timed = span == Span.BRIEF;
    }

    /** Admission found the cluster registered (and the credential good for it): it may be a label now. */
    void admittedTo(String registered) {
        cluster = registered;
    }

    /** The request ended with {@code status}; only the first call counts. */
    @Override
    public void accept(int status) {
        if (COUNTED.compareAndSet(this, 0, 1)) {
            meters.ended(cluster, verb, status, startedNanos, timed);
        }
    }
}
