package dev.klave.proxy;

import dev.klave.cluster.ClusterCallFailed;
import dev.klave.messages.Message;
import java.util.concurrent.TimeoutException;

/** Which answer a failed call to a cluster gets: spec 1 §7's four 502 texts, or 503 when the pool is full. */
final class UpstreamFailures {
    private UpstreamFailures() {}

    /**
     * A connection that could not be had: the pool's wait ran out with all of the cluster's
     * connections taken (503, try again), or connecting failed or took too long (one of spec 1
     * §7's four). Vert.x's one timer bounds both the wait and the opening of a connection, so
     * whether the pool was full tells them apart.
     *
     * @param poolFull whether every pooled connection was taken when the timer ran out
     */
    static Message classifyConnecting(Throwable failure, boolean poolFull) {
        if (failure instanceof TimeoutException && !(failure instanceof io.netty.channel.ConnectTimeoutException)) {
            return poolFull ? Message.PROXY_CLUSTER_BUSY : Message.UPSTREAM_TIMEOUT;
        }
        return classify(failure);
    }

    /** The four connection failures of spec 1 §7, by cause (one rule with the JDK client's). */
    static Message classify(Throwable failure) {
        return ClusterCallFailed.Kind.of(failure).message();
    }
}
