package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * {@code pods/{name}/exec} and {@code pods/{name}/attach}: the request is checked like the
 * apiserver does (pod, container, streams), then served over whichever upgrade the client asked
 * for, WebSocket (GET) or SPDY/3.1 (POST).
 */
final class RemoteCommandHandler implements ApiServer.SubresourceHandler {
    private final PodRuntime pods;
    private final boolean attach;
    private final Faults faults;

    RemoteCommandHandler(PodRuntime pods, boolean attach, Faults faults) {
        this.pods = requireNonNull(pods, "pods is null");
        this.attach = attach;
        this.faults = requireNonNull(faults, "faults is null");
    }

    @Override
    public void handle(HttpExchange exchange, RequestInfo info, ResourceType type, UserInfo user) throws IOException {
        if (!info.verb().equals("get") && !info.verb().equals("create")) {
            throw ApiException.methodNotAllowed();
        }
        ExecRequest exec = ExecRequest.of(exchange.request(), pods.pod(info.namespace(), info.name()), attach);
        if (WebSocketConnection.requested(exchange.request())) {
            WebSocketExec.serve(exchange, exec, faults.sessionAnswer());
            return;
        }
        if (SpdyUpgrade.requested(exchange.request())) {
            SpdyExec.serve(exchange, exec);
            return;
        }
        throw ApiException.badRequest("Upgrade request required");
    }
}
