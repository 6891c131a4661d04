package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The proxy's per-request meters: {@code klave_proxy_requests_total{cluster,verb,code}} and the
 * latency histogram {@code klave_proxy_request_duration_seconds{cluster,verb}}. Each meter is
 * made once and kept, by cluster, then verb, then status: a request looks its meters up in two
 * hash maps and an array, and builds no tags.
 *
 * <p>Bounded labels: {@code cluster} is a registered cluster's id once admission found it
 * ({@link #UNKNOWN} before: a request refused before its credential and cluster were checked
 * names no cluster, whatever its path said), {@code verb} one of the Kubernetes verbs or methods
 * (a closed set, {@link dev.klave.gateway.RequestInfo}), {@code code} an HTTP status. Watches,
 * followed logs and upgraded connections last as long as their client wants: they are counted
 * but kept out of the histogram, as the API server does with its own.
 */
final class ProxyMeters {
    /** The cluster or verb of a request refused before either was established. */
    static final String UNKNOWN = "-";
    private static final int LOWEST_STATUS = 100;
    private static final int STATUSES = 500;

    /** Buckets: from a remembered credential check on loopback to the proxy's 60 s time-out. */
    private static final Duration[] BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
        Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60)};

    private final MeterRegistry registry;
    private final Map<String, Map<String, Verb>> clusters = new ConcurrentHashMap<>();

    /** One cluster and verb's meters: the histogram, and a counter per status, made on first use. */
    private final class Verb {
        private final String cluster;
        private final String verb;
        private final Timer duration;
        private final AtomicReferenceArray<Counter> byStatus = new AtomicReferenceArray<>(STATUSES + 1);

        Verb(String cluster, String verb) {
            this.cluster = cluster;
            this.verb = verb;
            this.duration = Timer.builder("klave.proxy.request.duration")
                    .description("Time from a proxied request's arrival until its answer ended, watches, followed "
                            + "logs and upgrades excepted")
                    .tags("cluster", cluster, "verb", verb)
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry);
        }

        Counter counter(int status) {
            int index = status >= LOWEST_STATUS && status < LOWEST_STATUS + STATUSES ? status - LOWEST_STATUS
                    : STATUSES;
            Counter counter = byStatus.get(index);
            if (counter == null) {
                String code = index == STATUSES ? "other" : Integer.toString(status);
                counter = Counter.builder("klave.proxy.requests")
                        .description("Proxied requests, by the cluster, the Kubernetes verb and the status answered")
                        .tags("cluster", cluster, "verb", verb, "code", code)
                        .register(registry);
                byStatus.compareAndSet(index, null, counter);
            }
            return counter;
        }
    }

    ProxyMeters(MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
    }

    /**
     * Counts one request that ended with {@code status}.
     *
     * @param startedNanos {@link System#nanoTime()} at its arrival
     * @param timed false for a watch, a followed log or an upgrade: counted, not timed
     */
    void ended(String cluster, String verb, int status, long startedNanos, boolean timed) {
        Verb meters = meters(cluster, verb);
        meters.counter(status).increment();
        if (timed) {
            meters.duration.record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
        }
    }

    private Verb meters(String cluster, String verb) {
        Map<String, Verb> verbs = clusters.get(cluster);
        if (verbs == null) {
            verbs = clusters.computeIfAbsent(cluster, ignored -> new ConcurrentHashMap<>());
        }
        Verb meters = verbs.get(verb);
        if (meters == null) {
            meters = verbs.computeIfAbsent(verb, ignored -> new Verb(cluster, verb));
        }
        return meters;
    }
}
