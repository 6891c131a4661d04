package dev.klave.metrics;

import static java.util.Objects.requireNonNull;

import dev.klave.config.ListenAddress;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Optional;

/**
 * A replica's meters: with {@code SERVICE_METRICS_LISTEN} set, a Prometheus registry with the
 * JVM's binders, served by {@link MetricsListener} from {@link #start()}; without it, an empty
 * composite registry, whose meters record nothing and cost next to nothing.
 */
public final class Metrics implements AutoCloseable {
    private final MeterRegistry registry;
    private final Optional<Served> served;

    /** The Prometheus side: its registry, where it listens, and what must be closed with it. */
    private record Served(PrometheusMeterRegistry registry, ListenAddress listen, List<AutoCloseable> binders,
            MetricsListener listener) {}

    private Metrics(MeterRegistry registry, Optional<Served> served) {
        this.registry = registry;
        this.served = served;
    }

    /** Metrics as the settings say: served on {@code listen}, or off. Nothing listens before {@link #start()}. */
    public static Metrics from(Optional<ListenAddress> listen) {
        requireNonNull(listen, "listen is null");
        if (listen.isEmpty()) {
            return off();
        }
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // Two of the processor binder's names break Prometheus's naming rules (promtool check
        // metrics): a unit abbreviated (process_cpu_time_ns_total) and a gauge ending in _count
        // (system_cpu_count). process_cpu_usage and system_cpu_usage say what they would.
        prometheus.config().meterFilter(MeterFilter.deny(id -> id.getName().equals("process.cpu.time")
                || id.getName().equals("system.cpu.count")));
        new ClassLoaderMetrics().bindTo(prometheus);
        new JvmMemoryMetrics().bindTo(prometheus);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(prometheus);
        JvmHeapPressureMetrics pressure = new JvmHeapPressureMetrics();
        pressure.bindTo(prometheus);
        new JvmThreadMetrics().bindTo(prometheus);
        new ProcessorMetrics().bindTo(prometheus);
        new UptimeMetrics().bindTo(prometheus);
        new FileDescriptorMetrics().bindTo(prometheus);
        return new Metrics(prometheus, Optional.of(new Served(prometheus, listen.get(), List.of(gc, pressure),
                new MetricsListener(prometheus::scrape))));
    }

    /** No metrics: meters made from {@link #registry()} record nothing. */
    public static Metrics off() {
        return new Metrics(new CompositeMeterRegistry(), Optional.empty());
    }

    /** Where every package makes its meters. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Whether {@code /metrics} is served. */
    public boolean enabled() {
        return served.isPresent();
    }

    /** Opens the metrics listener, when metrics are on. */
    public void start() {
        served.ifPresent(on -> on.listener().start(on.listen()));
    }

    /** The port {@code /metrics} is served on (the one chosen, for port 0). */
    public Optional<Integer> port() {
        return served.map(on -> on.listener().port());
    }

    /** The text a scrape gets now (tests, and the listener). */
    public Optional<String> scrape() {
        return served.map(on -> on.registry().scrape());
    }

    @Override
    public void close() {
        served.ifPresent(on -> {
            on.listener().close();
            for (AutoCloseable binder : on.binders()) {
                try {
                    binder.close();
                } catch (Exception e) {
                    throw new IllegalStateException("cannot close " + binder, e);
                }
            }
            on.registry().close();
        });
    }
}
