package dev.klave.metrics;

import static java.util.Objects.requireNonNull;

import dev.klave.gateway.OpenCalls;
import dev.klave.login.forge.ForgeSync;
import dev.klave.login.oidc.DiscoveryStatus;
import dev.klave.login.oidc.OidcProvider;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges over state other packages keep: the calls held open, and — when configured — the forge's
 * member sync and the OIDC provider's discovery. The last two read the shared rows every replica
 * writes (one indexed read per scrape); a read that fails gives NaN, which Prometheus shows as a
 * gap, rather than a stale figure.
 */
public final class StateGauges {
    private static final Logger LOG = LoggerFactory.getLogger(StateGauges.class);

    private StateGauges() {}

    public static void bind(MeterRegistry registry, OpenCalls streams, Optional<ForgeSync> forge,
            Optional<OidcProvider> oidc) {
        requireNonNull(registry, "registry is null");
        Gauge.builder("klave.open.streams", streams, OpenCalls::size)
                .description("Calls held open on this replica: watches, followed logs, exec/attach/port-forward, and "
                        + "requests waiting for the cluster's answer")
                .register(registry);
        forge.ifPresent(sync -> {
            Gauge.builder("klave.forge.sync.last.run.timestamp", () -> read(() -> sync.lastReport()
                    .map(report -> seconds(report.finishedAt()))))
                    .description("When the last forge member sync pass ended (any replica), in Unix seconds")
                    .baseUnit("seconds")
                    .register(registry);
            Gauge.builder("klave.forge.sync.last.run.success", () -> read(() -> sync.lastReport()
                    .map(report -> report.error().isEmpty() ? 1.0 : 0.0)))
                    .description("1 when the last forge member sync pass completed, 0 when it aborted (nobody was "
                            + "disabled then)")
                    .register(registry);
            Gauge.builder("klave.forge.sync.last.run.members", () -> read(() -> sync.lastReport()
                    .map(report -> (double) report.membersSeen())))
                    .description("Organisation members the last forge sync pass saw")
                    .register(registry);
        });
        oidc.ifPresent(provider -> {
            Gauge.builder("klave.oidc.discovery.up", provider, known -> known.discovered() ? 1.0 : 0.0)
                    .description("1 when this replica holds the OIDC provider's discovery document and keys")
                    .register(registry);
            Gauge.builder("klave.oidc.discovery.failing", () -> read(() -> provider.status()
                    .map(status -> status.failing() ? 1.0 : 0.0)))
                    .description("1 when the last fetch of the provider's discovery document (any replica) failed")
                    .register(registry);
            Gauge.builder("klave.oidc.discovery.last.success.timestamp", () -> read(() -> provider.status()
                    .flatMap(DiscoveryStatus::fetchedAt).map(StateGauges::seconds)))
                    .description("When the provider's discovery document was last fetched (any replica), in Unix "
                            + "seconds")
                    .baseUnit("seconds")
                    .register(registry);
        });
    }

    private static double seconds(Instant instant) {
        return instant.toEpochMilli() / 1000.0;
    }

    /** NaN for no value yet, and for a database that cannot say now. */
    private static double read(Supplier<Optional<Double>> value) {
        try {
            return value.get().orElse(Double.NaN);
        } catch (RuntimeException e) {
            LOG.debug("a gauge could not be read: {}", e.toString());
            return Double.NaN;
        }
    }
}
