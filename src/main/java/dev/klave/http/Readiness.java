package dev.klave.http;

import java.util.Optional;

/** Whether this replica should receive traffic; may block for a bounded time. */
@FunctionalInterface
public interface Readiness {
    /** Empty when ready; otherwise what {@code /readyz} answers with its 503. */
    Optional<String> problem();
}
