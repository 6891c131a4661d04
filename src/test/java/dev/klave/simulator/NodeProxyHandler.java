package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;

/**
 * {@code nodes/<node>/proxy/…}: the API server hands what follows {@code proxy} to the node's
 * kubelet, whose own server routes (case-sensitive, as go-restful does) {@code exec}, {@code attach}
 * and {@code run} at {@code /<action>/<namespace>/<pod>[/<uid>]/<container>}. The kubelet reads its
 * streams as {@code input}, {@code output}, {@code error} and {@code tty} set to 1, its command as
 * repeated {@code command} parameters (exec) or one {@code cmd} split on spaces (run, a plain POST
 * answered with the output). Nodes are not kept as objects here: any node name serves the pods.
 * Anything else the kubelet would not find is 404.
 */
final class NodeProxyHandler {
    private final PodRuntime pods;
    private final Faults faults;

    NodeProxyHandler(PodRuntime pods, Faults faults) {
        this.pods = requireNonNull(pods, "pods is null");
        this.faults = requireNonNull(faults, "faults is null");
    }

    void handle(HttpExchange exchange, RequestInfo info) throws IOException {
        List<String> parts = Arrays.stream(info.path().split("/")).filter(part -> !part.isEmpty()).toList();
        // api, v1, nodes, <node>, proxy, <action>, <namespace>, <pod>, [<uid>], <container>
        if (parts.size() != 9 && parts.size() != 10) {
            throw ApiException.pathNotFound();
        }
        String action = parts.get(5);
        String container = parts.getLast();
        var pod = pods.pod(parts.get(6), parts.get(7));
        HttpRequest request = exchange.request();
        switch (action) {
            case "exec", "attach" -> {
                ExecRequest exec = ExecRequest.ofKubelet(request, pod, container, action.equals("attach"));
                if (WebSocketConnection.requested(request)) {
                    WebSocketExec.serve(exchange, exec, faults.sessionAnswer());
                } else if (SpdyUpgrade.requested(request)) {
                    SpdyExec.serve(exchange, exec);
                } else {
                    throw ApiException.badRequest("Upgrade request required");
                }
            }
            case "run" -> {
                if (!request.method().equals("POST")) {
                    throw ApiException.methodNotAllowed();
                }
                List<String> command = List.of(request.queryParameter("cmd").orElse("").strip().split(" +"));
                ByteArrayOutputStream output = new ByteArrayOutputStream();
                new ScriptedContainer(pod, PodRuntime.container(pod, container))
                        .run(command, new ScriptedContainer.Streams(InputStream.nullInputStream(), output, output));
                Responses.text(exchange, 200, output.toString(java.nio.charset.StandardCharsets.UTF_8));
            }
            default -> throw ApiException.pathNotFound();
        }
    }
}
