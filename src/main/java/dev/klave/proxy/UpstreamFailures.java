package dev.klave.proxy;

import dev.klave.cluster.ClusterCallFailed;
import dev.klave.messages.Message;
import java.util.concurrent.TimeoutException;

/** Which answer a failed call to a cluster gets: spec 1 §7's four 502 texts, or 503 when the pool is full. */
final class UpstreamFailures {
    private UpstreamFailures() {}

    /**
     * A connection that could not be had: the pool's wait ran out (all of the cluster's
     * connections busy: 503, try again), or connecting failed (one of spec 1 §7's four).
     */
    static Message classifyConnecting(Throwable failure) {
        if (failure instanceof TimeoutException && !(failure instanceof io.netty.channel.ConnectTimeoutException)) {
            return Message.PROXY_CLUSTER_BUSY;
        }
        return classify(failure);
    }

    /** The four connection failures of spec 1 §7, by cause (one rule with the JDK client's). */
    static Message classify(Throwable failure) {
        return ClusterCallFailed.Kind.of(failure).message();
    }
}
