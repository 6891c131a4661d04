package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * A call to a cluster's API server failed. {@link #summary()} is the Spanish text shown to
 * administrators (502 answers, the cluster's last error); the cause stays in the log.
 */
public final class ClusterCallFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** How the call failed: the four connection failures of spec 1 §7, or an answer that was an error. */
    public enum Kind {
        TIMEOUT(Message.UPSTREAM_TIMEOUT),
        CERTIFICATE(Message.UPSTREAM_CERTIFICATE),
        UNREACHABLE(Message.UPSTREAM_UNREACHABLE),
        CONNECTION(Message.UPSTREAM_CONNECTION),
        REFUSED_BY_CLUSTER(null);

        private final Message message;

        Kind(Message message) {
            this.message = message;
        }

        public Message message() {
            return message;
        }

        /**
         * Which of spec 1 §7's four a failure to reach a cluster is, by its cause — the one rule for
         * the proxy (Netty's and Vert.x's exceptions) and the JDK client (the reconciler, the
         * gateway's exchange): a TLS or certificate failure, a time-out (any exception named so:
         * Netty's and the JDK's share no type), no route or connection refused, or else a broken
         * connection. The chain is walked, since both wrap the real cause.
         *
         * <p>A handshake the server cut — reset or closed before TLS was established, as a server
         * closing its port does to connections it had not yet served — never saw a certificate: it
         * is the API server not reachable, not a certificate that does not match (a clean clone's
         * CI saw a cluster going down answered as a wrong CA about one time in twenty).
         */
        public static Kind of(Throwable failure) {
            if (cutHandshake(failure)) {
                return UNREACHABLE;
            }
            for (Throwable e = failure; e != null; e = e.getCause()) {
                if (e instanceof SSLException || e instanceof CertificateException) {
                    return CERTIFICATE;
                }
                if (e instanceof TimeoutException || e.getClass().getSimpleName().contains("Timeout")) {
                    return TIMEOUT;
                }
                if (e instanceof ConnectException || e instanceof UnknownHostException
                        || e instanceof NoRouteToHostException) {
                    return UNREACHABLE;
                }
                if (e.getCause() == e) {
                    break;
                }
            }
            return CONNECTION;
        }

        /**
         * A TLS handshake ended by the other side going away, with no certificate judged: the
         * handshake exception caused by a reset or closed socket, or the JDK's own words for an
         * end of stream in the middle of it (raised without a cause).
         */
        private static boolean cutHandshake(Throwable failure) {
            boolean handshake = false;
            boolean cut = false;
            for (Throwable e = failure; e != null && e.getCause() != e; e = e.getCause()) {
                if (e instanceof CertificateException) {
                    return false;
                }
                if (e instanceof SSLHandshakeException) {
                    handshake = true;
                    String said = String.valueOf(e.getMessage());
                    cut |= said.startsWith("Remote host terminated the handshake")
                            || said.startsWith("Remote host closed the channel")
                            || said.startsWith("Connection closed while SSL/TLS handshake");
                } else if (handshake && (e instanceof SocketException || e instanceof EOFException
                        || e instanceof ClosedChannelException)) {
                    cut = true;
                }
            }
            return cut;
        }
    }

    private final Kind kind;
    private final int status;
    private final String summary;

    public ClusterCallFailed(Kind kind, int status, String summary, Throwable cause) {
        super(summary, cause);
        this.kind = requireNonNull(kind, "kind is null");
        this.status = status;
        this.summary = requireNonNull(summary, "summary is null");
    }

    public static ClusterCallFailed connection(Kind kind, Throwable cause) {
        return new ClusterCallFailed(kind, 0, kind.message().text(), cause);
    }

    public static ClusterCallFailed answered(int status, String clusterMessage) {
        return new ClusterCallFailed(Kind.REFUSED_BY_CLUSTER, status,
                Text.CLUSTER_ANSWERED.text(status, clusterMessage), null);
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status the cluster answered, or 0 when there was no answer. */
    public int status() {
        return status;
    }

    public String summary() {
        return summary;
    }
}
