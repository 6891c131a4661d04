package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code pods/{name}/portforward} with the {@code portforward.k8s.io} protocol, over SPDY/3.1
 * (POST upgrade) or tunnelled in a WebSocket ({@code SPDY/3.1+portforward.k8s.io}, kubectl 1.32's
 * first try). The client opens an error and a data stream per connection, paired by
 * {@code requestid} and naming the {@code port}; each pair is served by {@link PodPorts}.
 */
final class PortForwardHandler implements ApiServer.SubresourceHandler {
    static final String WEBSOCKET_PROTOCOL = "SPDY/3.1+portforward.k8s.io";
    static final String SPDY_PROTOCOL = "portforward.k8s.io";
    private static final long IDLE_WAIT_MILLIS = 60 * 60 * 1000;

    private final PodRuntime pods;

    PortForwardHandler(PodRuntime pods) {
        this.pods = requireNonNull(pods, "pods is null");
    }

    @Override
    public void handle(HttpExchange exchange, RequestInfo info, ResourceType type, UserInfo user) throws IOException {
        ObjectNode pod = pods.pod(info.namespace(), info.name());
        HttpRequest request = exchange.request();
        if (WebSocketConnection.requested(request)) {
            if (WebSocketConnection.choose(request, List.of(WEBSOCKET_PROTOCOL)).isEmpty()) {
                throw ApiException.badRequest("unable to upgrade: port-forward over WebSocket needs " + WEBSOCKET_PROTOCOL);
            }
            WebSocketConnection socket = WebSocketConnection.accept(exchange, WEBSOCKET_PROTOCOL);
            try (WebSocketTunnel tunnel = new WebSocketTunnel(socket);
                    SpdySession session = new SpdySession(tunnel.input(), tunnel.output(), tunnel)) {
                forward(session, pod);
            }
            return;
        }
        if (SpdyUpgrade.requested(request)) {
            try (SpdySession session = SpdyUpgrade.accept(exchange, List.of(SPDY_PROTOCOL))) {
                forward(session, pod);
            }
            return;
        }
        throw ApiException.badRequest("Upgrade request required");
    }

    private void forward(SpdySession session, ObjectNode pod) {
        Map<String, SpdySession.Stream> errors = new HashMap<>();
        Map<String, SpdySession.Stream> data = new HashMap<>();
        try {
            while (!pods.closed()) {
                Optional<SpdySession.Stream> next = session.nextStream(IDLE_WAIT_MILLIS);
                if (next.isEmpty()) {
                    return;
                }
                SpdySession.Stream stream = next.get();
                String requestId = stream.header("requestid");
                (stream.header("streamtype").equals("error") ? errors : data).put(requestId, stream);
                if (errors.containsKey(requestId) && data.containsKey(requestId)) {
                    SpdySession.Stream error = errors.remove(requestId);
                    SpdySession.Stream connection = data.remove(requestId);
                    Thread.ofVirtual().name("simulator-portforward").start(() -> serve(pod, error, connection));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** kubelet's message when the port cannot be reached (pkg/kubelet/cri/streaming/portforward). */
    private static void serve(ObjectNode pod, SpdySession.Stream error, SpdySession.Stream connection) {
        try {
            int port = Integer.parseInt(connection.header("port"));
            if (PodPorts.declared(pod).contains(port)) {
                PodPorts.serve(pod, port, connection.input(), connection.output());
            } else {
                String name = Json.string(pod, "metadata", "name").orElse("");
                String uid = Json.string(pod, "metadata", "uid").orElse("");
                error.output().write(("error forwarding port " + port + " to pod " + name + ", uid " + uid
                        + ": failed to connect to localhost:" + port + " inside namespace: connection refused")
                        .getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException | NumberFormatException ended) {
            // the client closed its end; nothing left to tell it
        } finally {
            try {
                connection.finish();
                error.finish();
            } catch (IOException ignored) {
                // the session is already gone
            }
        }
    }
}
