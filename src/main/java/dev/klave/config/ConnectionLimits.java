package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What a client connection may cost Klave while it sends no request: each one holds an open file,
 * and the process has a limit of them that health checks share.
 *
 * @param headTimeout how long a request head may take to arrive, from its first byte (or, on a new
 *     connection, from the connection's start: a TLS handshake followed by nothing counts)
 *     ({@code SERVICE_REQUEST_HEAD_TIMEOUT})
 * @param idleTimeout how long a kept-alive connection with no request in flight stays open; a
 *     watch or an exec stream has one in flight and is never idle ({@code SERVICE_IDLE_TIMEOUT})
 * @param perAddress open connections from one client address (IPv6: one block of
 *     {@code SERVICE_IPV6_PREFIX}); trusted proxies are not counted
 *     ({@code SERVICE_MAX_CONNECTIONS_PER_ADDRESS})
 */
public record ConnectionLimits(Duration headTimeout, Duration idleTimeout, int perAddress) {
    public ConnectionLimits {
        requireNonNull(headTimeout, "headTimeout is null");
        requireNonNull(idleTimeout, "idleTimeout is null");
        if (perAddress < 1) {
            throw new IllegalArgumentException("perAddress must be positive");
        }
    }
}
