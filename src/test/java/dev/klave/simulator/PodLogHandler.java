package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * {@code pods/{name}/log}: plain text, {@code tailLines}, and {@code follow=true}, which streams
 * new lines until the client leaves, the pod is deleted or the simulator stops.
 */
final class PodLogHandler implements ApiServer.SubresourceHandler {
    private static final Duration POLL = Duration.ofMillis(200);

    private final PodRuntime pods;

    PodLogHandler(PodRuntime pods) {
        this.pods = requireNonNull(pods, "pods is null");
    }

    @Override
    public void handle(HttpExchange exchange, RequestInfo info, ResourceType type, UserInfo user) throws IOException {
        if (!info.verb().equals("get")) {
            throw ApiException.methodNotAllowed();
        }
        HttpRequest request = exchange.request();
        ObjectNode pod = pods.pod(info.namespace(), info.name());
        String container = PodRuntime.container(pod, request.queryParameter("container").orElse(""));
        PodLogs.Buffer buffer = pods.logs().buffer(info.namespace(), info.name(), container, PodRuntime.initialLog(pod, container));
        List<String> lines = buffer.from(0);
        int sent = lines.size();
        int tail = request.queryParameter("tailLines").map(Integer::parseInt).orElse(-1);
        if (tail >= 0 && tail < lines.size()) {
            lines = lines.subList(lines.size() - tail, lines.size());
        }
        if (!request.flag("follow")) {
            exchange.respond(200, "text/plain", join(lines));
            return;
        }
        HttpExchange.ChunkedBody body = exchange.startChunked(200, "text/plain");
        body.write(join(lines));
        ClientDisconnect client = ClientDisconnect.watch(exchange.input(), buffer::wake);
        try {
            while (!client.gone() && !pods.closed() && pods.exists(info.namespace(), info.name())) {
                buffer.awaitMore(sent, POLL);
                List<String> more = buffer.from(sent);
                sent += more.size();
                body.write(join(more));
            }
            if (!client.gone()) {
                body.finish();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] join(List<String> lines) {
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append(line).append('\n'));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
