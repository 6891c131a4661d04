package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * The switchable faults: a refused port, a delay before every answer, a certificate from another
 * CA. Each switch is applied to the running server; {@link #healthy()} undoes all of them.
 */
final class Faults {
    private final SimulatorHttpServer server;
    private final ServerIdentity trusted;
    private final ServerIdentity foreign;
    private volatile Duration delay = Duration.ZERO;
    /** An API server older than 1.27 (1.26 without its feature gate): no aggregated discovery. */
    private volatile boolean olderServer;
    private volatile boolean metricsApi = true;
    /** Headers an exec's or attach's 101 answer carries instead of its own (a server choosing what it likes). */
    private volatile java.util.Map<String, String> sessionAnswer = java.util.Map.of();

    Faults(SimulatorHttpServer server, ServerIdentity trusted, ServerIdentity foreign) {
        this.server = requireNonNull(server, "server is null");
        this.trusted = requireNonNull(trusted, "trusted is null");
        this.foreign = requireNonNull(foreign, "foreign is null");
    }

    void down() {
        server.down();
    }

    void slow(Duration delay) {
        requireNonNull(delay, "delay is null");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay is negative");
        }
        this.delay = delay;
    }

    void wrongCertificate() {
        server.useTls(foreign.sslContext());
        server.up();
    }

    /** Accepts connections and never answers, not even the TLS handshake: a cluster that hangs. */
    void silent() {
        server.silent(true);
    }

    void olderServer(boolean older) {
        this.olderServer = older;
    }

    boolean olderServer() {
        return olderServer;
    }

    void sessionAnswer(java.util.Map<String, String> headers) {
        this.sessionAnswer = java.util.Map.copyOf(headers);
    }

    java.util.Map<String, String> sessionAnswer() {
        return sessionAnswer;
    }

    void metricsApi(boolean installed) {
        this.metricsApi = installed;
    }

    boolean metricsApi() {
        return metricsApi;
    }

    void healthy() {
        server.silent(false);
        delay = Duration.ZERO;
        server.useTls(trusted.sslContext());
        server.up();
    }

    /** Called before each answer; sleeping holds only this request's virtual thread. */
    void beforeAnswer() {
        Duration current = delay;
        if (current.isZero()) {
            return;
        }
        try {
            Thread.sleep(current); // the slow cluster's fault (slow()), played to the request
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
