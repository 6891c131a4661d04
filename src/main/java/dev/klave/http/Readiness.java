package dev.klave.http;

/** Whether this replica should receive traffic; may block for a bounded time. */
@FunctionalInterface
public interface Readiness {
    boolean ready();
}
