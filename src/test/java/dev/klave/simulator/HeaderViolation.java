package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

/**
 * A header that reached the cluster and must not have (see {@link HeaderGuard}): the request
 * ({@code GET /api/v1/pods}), the header's name, and why it is forbidden. Never the header's value
 * when that could be a secret.
 */
public record HeaderViolation(String request, String header, String why) {
    public HeaderViolation {
        requireNonNull(request, "request is null");
        requireNonNull(header, "header is null");
        requireNonNull(why, "why is null");
    }

    @Override
    public String toString() {
        return request + ": " + header + " — " + why;
    }
}
