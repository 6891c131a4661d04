package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code pods/{name}/log}: plain text, filtered as the kubelet does (pkg/kubelet/kuberuntime/logs):
 * first by time ({@code sinceSeconds} or {@code sinceTime}), then the last {@code tailLines}, each
 * line prefixed with its RFC 3339 time when {@code timestamps=true}, cut at {@code limitBytes}.
 * {@code previous=true} reads the container's previous instance. Only {@code follow=true} streams
 * new lines, until the client leaves, the instance ends, the pod is deleted or the simulator stops.
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
        Optional<Instant> since = since(request);
        boolean timestamps = request.flag("timestamps");
        if (request.flag("previous")) {
            List<PodLogs.Line> previous = pods.previousLog(pod, container).orElseThrow(() -> ApiException.badRequest(
                    "previous terminated container \"" + container + "\" in pod \"" + info.name() + "\" not found"));
            exchange.respond(200, "text/plain", limit(join(select(previous, since, request), timestamps), request));
            return;
        }
        PodLogs.Buffer buffer = pods.logs().buffer(info.namespace(), info.name(), container,
                PodRuntime.initialLog(pod, container), PodRuntime.startedAt(pod, container));
        List<PodLogs.Line> lines = buffer.from(0);
        int sent = lines.size();
        byte[] first = join(select(lines, since, request), timestamps);
        if (!request.flag("follow")) {
            exchange.respond(200, "text/plain", limit(first, request));
            return;
        }
        HttpExchange.ChunkedBody body = exchange.startChunked(200, "text/plain");
        body.write(first);
        ClientDisconnect client = ClientDisconnect.watch(exchange.input(), buffer::wake);
        try {
            while (!client.gone() && !pods.closed() && pods.exists(info.namespace(), info.name())) {
                boolean ended = buffer.ended();
                buffer.awaitMore(sent, POLL);
                List<PodLogs.Line> more = buffer.from(sent);
                sent += more.size();
                body.write(join(more, timestamps));
                if (ended) {
                    break;
                }
            }
            if (!client.gone()) {
                body.finish();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The lines written at or after {@code since}, then the last {@code tailLines} of those. */
    private static List<PodLogs.Line> select(List<PodLogs.Line> lines, Optional<Instant> since, HttpRequest request) {
        List<PodLogs.Line> recent = since.map(from -> lines.stream().filter(line -> !line.time().isBefore(from)).toList())
                .orElse(lines);
        int tail = request.queryParameter("tailLines").map(value -> number(value, "tailLines")).orElse(-1L).intValue();
        return tail >= 0 && tail < recent.size() ? recent.subList(recent.size() - tail, recent.size()) : recent;
    }

    private Optional<Instant> since(HttpRequest request) {
        Optional<String> seconds = request.queryParameter("sinceSeconds");
        Optional<String> time = request.queryParameter("sinceTime");
        if (seconds.isPresent() && time.isPresent()) {
            throw ApiException.badRequest("at most one of sinceTime or sinceSeconds may be specified");
        }
        if (seconds.isPresent()) {
            return Optional.of(pods.logs().now().minusSeconds(number(seconds.get(), "sinceSeconds")));
        }
        try {
            return time.map(Instant::parse);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest("sinceTime: " + e.getMessage());
        }
    }

    private static byte[] limit(byte[] body, HttpRequest request) {
        long limit = request.queryParameter("limitBytes").map(value -> number(value, "limitBytes")).orElse(-1L);
        return limit >= 0 && limit < body.length ? Arrays.copyOf(body, (int) limit) : body;
    }

    private static long number(String value, String parameter) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(parameter + ": invalid value " + value);
        }
    }

    private static byte[] join(List<PodLogs.Line> lines, boolean timestamps) {
        StringBuilder text = new StringBuilder();
        for (PodLogs.Line line : lines) {
            if (timestamps) {
                text.append(line.time()).append(' ');
            }
            text.append(line.text()).append('\n');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
