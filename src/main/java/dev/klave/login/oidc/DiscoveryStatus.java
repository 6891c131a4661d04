package dev.klave.login.oidc;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * How the last fetch of the provider's discovery document went, shared by every replica (spec 2
 * §5 "Discovery"): fetched at a time, or failed at a time with an error.
 */
public record DiscoveryStatus(String issuer, Optional<Instant> fetchedAt, Optional<Instant> failedAt,
        Optional<String> error) {
    public DiscoveryStatus {
        requireNonNull(issuer, "issuer is null");
        requireNonNull(fetchedAt, "fetchedAt is null");
        requireNonNull(failedAt, "failedAt is null");
        requireNonNull(error, "error is null");
    }

    /** Whether the last attempt failed (a failing installation-health check, a notice). */
    public boolean failing() {
        return failedAt.isPresent() && fetchedAt.map(fetched -> fetched.isBefore(failedAt.get())).orElse(true);
    }
}
