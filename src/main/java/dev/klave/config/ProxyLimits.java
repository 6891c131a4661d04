package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How the proxy keeps one credential from taking a cluster away from everyone else: time-outs
 * towards the cluster, and each credential's share of the connections to it (all per replica).
 *
 * @param timeout how long a request that is not a stream may wait for the cluster
 *     ({@code SERVICE_PROXY_TIMEOUT})
 * @param queueTimeout how long a request may wait for a connection to its cluster, or for a free
 *     place among its credential's requests, before it is refused ({@code SERVICE_PROXY_QUEUE_TIMEOUT})
 * @param requestsPerCredential requests of one credential in flight to one cluster at once; more
 *     wait their turn ({@code SERVICE_PROXY_MAX_REQUESTS_PER_CREDENTIAL})
 * @param streamsPerCredential watches, followed logs and upgraded connections (exec, attach,
 *     port-forward) one credential holds open at once; more are refused
 *     ({@code SERVICE_PROXY_MAX_STREAMS_PER_CREDENTIAL})
 */
public record ProxyLimits(Duration timeout, Duration queueTimeout, int requestsPerCredential,
        int streamsPerCredential) {
    public ProxyLimits {
        requireNonNull(timeout, "timeout is null");
        requireNonNull(queueTimeout, "queueTimeout is null");
        if (requestsPerCredential < 1 || streamsPerCredential < 1) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }
}
