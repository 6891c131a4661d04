package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * {@code ?watch=true}: a chunked stream of {@code {"type":…,"object":…}} lines that stays open
 * until the client leaves, {@code timeoutSeconds} passes or the simulator stops. The writer blocks
 * on the socket, so a slow reader slows only its own watch (and is dropped once its bounded queue
 * overflows); a second virtual thread notices the client closing the connection.
 */
final class WatchStreamer {
    static final int QUEUE_CAPACITY = 1_000;
    private static final Duration POLL = Duration.ofMillis(200);

    private final ObjectStore store;

    WatchStreamer(ObjectStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    void stream(HttpExchange exchange, ResourceType type, Optional<String> namespace, Predicate<ObjectNode> filter)
            throws IOException {
        HttpRequest request = exchange.request();
        Optional<Long> from = request.queryParameter("resourceVersion")
                .filter(value -> !value.isEmpty() && !value.equals("0"))
                .map(WatchStreamer::parseRevision);
        boolean table = Tables.wanted(request);
        Instant deadline = request.queryParameter("timeoutSeconds")
                .map(seconds -> Instant.now().plusSeconds(Long.parseLong(seconds)))
                .orElse(Instant.MAX);
        WatchSubscription subscription;
        try {
            subscription = store.watch(type, namespace, from, filter, QUEUE_CAPACITY);
        } catch (ApiException gone) {
            HttpExchange.ChunkedBody body = exchange.startChunked(200, "application/json");
            body.write(line("ERROR", gone.status()));
            body.finish();
            return;
        }
        try (subscription) {
            HttpExchange.ChunkedBody body = exchange.startChunked(200, "application/json");
            ClientDisconnect client = ClientDisconnect.watch(exchange.input(), subscription::close);
            boolean first = true;
            while (!client.gone() && !subscription.ended() && Instant.now().isBefore(deadline)) {
                Optional<ObjectStore.StoredEvent> event = subscription.next(POLL);
                if (event.isEmpty()) {
                    continue;
                }
                ObjectNode object = event.get().object();
                if (table) {
                    object = Tables.table(type, List.of(object), Json.string(object, "metadata", "resourceVersion").orElse(""),
                            request, store.now(), first);
                }
                first = false;
                body.write(line(event.get().type(), object));
            }
            if (!client.gone()) {
                body.finish();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] line(String type, ObjectNode object) {
        ObjectNode event = Json.object();
        event.put("type", type);
        event.set("object", object);
        return (event + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static long parseRevision(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid resource version: " + value);
        }
    }
}
