package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.net.InetAddress;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests refused before any route: those the decoder could not accept (RFC 9112 framing, a
 * line or head too long, bad header syntax, HTTP/2 spoken without TLS). Each gets
 * an {@code Audit-ID} and its audit row before the answer, an answer in the form the path's own
 * handler uses ({@link EdgeMap}: a Kubernetes {@code Status} under the proxy, the mount's error
 * format under the API's mounts, plain text elsewhere), and the connection is closed: after a
 * framing error nothing else on it can be trusted (RFC 9112 §6.3).
 */
final class EdgeRefusals {
    private static final Logger LOG = LoggerFactory.getLogger(EdgeRefusals.class);
    /** The target Netty gives a request whose first line it could not read. */
    private static final String NETTY_PLACEHOLDER = "/bad-request";

    private final EdgeMap map;
    private final EdgeAudit audit;
    private final ClientAddresses clients;

    EdgeRefusals(EdgeMap map, EdgeAudit audit, ClientAddresses clients) {
        this.map = requireNonNull(map, "map is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.clients = requireNonNull(clients, "clients is null");
    }

    /** The server's invalid-request handler: the decoder refused this request. */
    void malformed(HttpServerRequest request) {
        Throwable cause = request.decoderResult().cause();
        if (cause instanceof MalformedRequest malformed) {
            refuse(request, malformed.message(), malformed.text());
        } else if (cause instanceof TooLongHttpLineException) {
            refuse(request, Message.URI_TOO_LONG, Message.URI_TOO_LONG.text());
        } else if (cause instanceof TooLongHttpHeaderException) {
            refuse(request, Message.HEADERS_TOO_LARGE, Message.HEADERS_TOO_LARGE.text());
        } else {
            refuse(request, Message.REQUEST_MALFORMED, Message.REQUEST_MALFORMED.text());
        }
    }

    /** Writes the row, then answers {@code kind} with {@code text} and closes the connection. */
    private void refuse(HttpServerRequest request, Message kind, String text) {
        int status = kind.status();
        HttpServerResponse response = request.response();
        InetAddress peer = InetAddress.ofLiteral(request.remoteAddress().hostAddress());
        InetAddress client = clients.resolve(peer, request.headers().getAll("X-Forwarded-For"));
        String method = request.method() == null ? "" : request.method().name();
        EdgeAudit.Recorded recorded = audit.record(new EdgeAudit.Refused(method, request.uri(), client,
                EdgeAudit.Refused.bearerOf(Optional.ofNullable(request.getHeader("Authorization"))), status, text));
        response.putHeader("Audit-ID", recorded.auditId());
        Context context = Vertx.currentContext();
        recorded.durable().whenComplete((written, failure) -> {
            if (failure != null) {
                LOG.warn("audit row {} of a refused request not written: {}", recorded.auditId(), failure.toString());
            }
            context.runOnContext(ignored -> answer(request, kind, text));
        });
    }

    private void answer(HttpServerRequest request, Message kind, String text) {
        HttpServerResponse response = request.response();
        if (response.ended() || response.closed()) {
            request.connection().close();
            return;
        }
        response.putHeader("Connection", "close");
        // A request line the decoder could not read (too long, or not three parts) has no path
        // (Netty puts its placeholder there): it is answered as the API answers.
        EdgeMap.Destination destination = request.path() == null || request.path().equals(NETTY_PLACEHOLDER)
                ? new EdgeMap.Api(RoutePolicy.API) : map.of(request.path());
        switch (destination) {
            case EdgeMap.Proxy _ -> KubeStatus.send(response, kind.status(), text);
            case EdgeMap.Api api -> Responses.error(response, api.mount(), kind, text);
            case EdgeMap.Liveness _, EdgeMap.Readiness _, EdgeMap.Web _ ->
                    Responses.text(response, kind.status(), text, false);
        }
        // Closed by us, not left to the client: the rest of its bytes are not a request. Vert.x
        // writes what was ended before it closes.
        request.connection().close();
    }
}
