package dev.klave.proxy;

import dev.klave.messages.Message;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/** Which of the four 502 texts of spec 1 §7 a failed call to a cluster gets, by its cause. */
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

    /** The four connection failures of spec 1 §7, by cause. */
    static Message classify(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause()) {
            if (e instanceof SSLException || e instanceof java.security.cert.CertificateException) {
                return Message.UPSTREAM_CERTIFICATE;
            }
            if (e instanceof TimeoutException || e instanceof io.netty.channel.ConnectTimeoutException
                    || e.getClass().getSimpleName().contains("Timeout")) {
                return Message.UPSTREAM_TIMEOUT;
            }
            if (e instanceof ConnectException || e instanceof UnknownHostException
                    || e instanceof java.net.NoRouteToHostException) {
                return Message.UPSTREAM_UNREACHABLE;
            }
            if (e.getCause() == e) {
                break;
            }
        }
        return Message.UPSTREAM_CONNECTION;
    }

}
