package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.gateway.Ending;
import dev.klave.http.KubeStatus;
import dev.klave.messages.Message;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's side of one proxied request, from its head to its end: what happens when its body
 * cannot be read or its client leaves, whether or not the request has reached the cluster yet.
 * Confined to the request's event loop (the cluster connections are pooled per loop as well).
 *
 * <p>A body that fails to decode (a chunk line outside RFC 9112 §7.1, say) ends everything at
 * once: the client gets 400 with its Audit-ID — written before Vert.x closes the connection,
 * which it does right after this learns of the failure — the row is completed with it, and the
 * request to the cluster is reset rather than left waiting for the rest of a body that will never
 * come. Left open, each such request held a pooled connection to the cluster until the proxy's
 * time-out, and a few hundred of them took the cluster away from everyone else.
 */
final class ProxiedRequest {
    private static final Logger LOG = LoggerFactory.getLogger(ProxiedRequest.class);

    private enum Phase { ADMISSION, FORWARDING, REFUSED, FAILED, GONE }

    private final HttpServerRequest request;
    private final Ending ending;
    private Phase phase = Phase.ADMISSION;
    /** The client left while admission ran: admitted() records it once the row is the request's. */
    private boolean leftDuringAdmission;
    private HttpClientRequest upstream;

    ProxiedRequest(HttpServerRequest request, Ending ending) {
        this.request = requireNonNull(request, "request is null");
        this.ending = requireNonNull(ending, "ending is null");
        request.exceptionHandler(this::failed);
    }

    Ending ending() {
        return ending;
    }

    /**
     * The request passed its checks and its row is written: true when it may go on to the cluster.
     * A client that left during admission is recorded now (499); a body that failed during it was
     * answered and recorded already.
     */
    boolean admitted() {
        if (phase == Phase.ADMISSION && request.response().closed()) {
            phase = Phase.GONE;
            leftDuringAdmission = true;
        }
        if (leftDuringAdmission) {
            leftDuringAdmission = false;
            ending.end(Message.AUDIT_CLIENT_GONE.status(), Optional.of(Message.AUDIT_CLIENT_GONE.text()));
        }
        if (phase != Phase.ADMISSION) {
            return false;
        }
        phase = Phase.FORWARDING;
        return true;
    }

    /**
     * Admission refused the request, whose row says so: true when the refusal is to be answered
     * (the client's side has not ended meanwhile). What happens to its body afterwards changes
     * nothing in the row.
     */
    boolean refused() {
        if (phase != Phase.ADMISSION) {
            return false;
        }
        phase = Phase.REFUSED;
        return true;
    }

    /** Whether the request was answered or ended on the client's side already. */
    boolean over() {
        return phase == Phase.FAILED || phase == Phase.GONE || phase == Phase.REFUSED;
    }

    /** The request to the cluster now exists; false (and it is reset) when the client's side ended meanwhile. */
    boolean sending(HttpClientRequest request) {
        this.upstream = request;
        if (over()) {
            request.reset();
            return false;
        }
        return true;
    }

    private void failed(Throwable failure) {
        if (over()) {
            if (phase == Phase.REFUSED) {
                LOG.debug("body of a refused request not read: {}", failure.toString());
            }
            return;
        }
        boolean admitted = phase == Phase.FORWARDING;
        HttpServerResponse response = request.response();
        if (failure instanceof HttpClosedException || response.closed()) {
            phase = Phase.GONE;
            // While admission runs, the row is not the request's to complete yet: admitted() does
            // it (a refusal's row keeps its own status).
            if (admitted) {
                ending.end(Message.AUDIT_CLIENT_GONE.status(), Optional.of(Message.AUDIT_CLIENT_GONE.text()));
            } else {
                leftDuringAdmission = true;
            }
        } else {
            phase = Phase.FAILED;
            LOG.debug("request body not read: {}", failure.toString());
            Message refused = Message.BODY_CHUNKS_MALFORMED;
            ending.end(refused.status(), Optional.of(refused.text()));
            response.putHeader(HttpHeaders.CONNECTION, "close");
            KubeStatus.send(response, refused);
            // Closing through Vert.x flushes the answer first; the close Vert.x makes after this
            // handler returns would drop it unsent.
            request.connection().close();
        }
        if (upstream != null) {
            upstream.reset();
        }
    }
}
