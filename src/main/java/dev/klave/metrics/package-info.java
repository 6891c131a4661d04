/**
 * Metrics for the operator's Prometheus: the replica's meter registry and {@code /metrics} on a
 * listener of its own ({@code SERVICE_METRICS_LISTEN}), never on the public port.
 *
 * <p>What it owns: the registry's life (the JVM's and the pool's binders, the listener), and the
 * gauges that read state other packages already keep (open calls, the audit queue, the forge's
 * sync, the OIDC provider's discovery). Domain packages make their own counters and timers from
 * the {@link io.micrometer.core.instrument.MeterRegistry} they are given in their constructors;
 * nothing reaches a static registry. With metrics off the registry is an empty composite, whose
 * meters do nothing.
 *
 * <p>What it refuses: labels that grow with use. No credential, subject, session, namespace or
 * path is ever a label; a cluster is one only once admission found it registered.
 */
package dev.klave.metrics;
