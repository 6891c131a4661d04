package dev.klave.http;

import static java.util.Objects.requireNonNull;

import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an {@link ApiResponse.StreamedBody}: the head at once, then each chunk the producer
 * writes, the producer (on a virtual thread) waiting whenever the connection's write queue is full
 * until it drains — memory holds one chunk and what the socket buffers, whatever the size. A client
 * that leaves ends the producer's next write with an IOException; a producer that fails after the
 * head cuts the response (the chunked body never ends, so the client sees it incomplete — a cut
 * export must not read as a complete one).
 */
final class StreamedAnswer {
    private static final Logger LOG = LoggerFactory.getLogger(StreamedAnswer.class);

    private final HttpServerResponse response;
    private final Context context;
    private final AtomicReference<CompletableFuture<Void>> pending = new AtomicReference<>();
    private volatile boolean gone;

    private StreamedAnswer(HttpServerResponse response, Context context) {
        this.response = requireNonNull(response, "response is null");
        this.context = requireNonNull(context, "context is null");
    }

    /** Called on the response's event loop: the head goes out, the producer starts on {@code blocking}. */
    static void start(HttpServerResponse response, RoutePolicy policy, int status, ApiResponse.StreamedBody body,
            List<ApiResponse.Header> headers, Executor blocking, String what) {
        if (!Responses.beginStreamed(response, policy, status, body.contentType(), headers)) {
            return;
        }
        StreamedAnswer answer = new StreamedAnswer(response, io.vertx.core.Vertx.currentContext());
        response.closeHandler(ignored -> answer.left());
        blocking.execute(() -> answer.produce(body.producer(), what));
    }

    private void produce(ApiResponse.Producer producer, String what) {
        try {
            producer.produce(this::write);
            context.runOnContext(ignored -> {
                if (!response.ended() && !response.closed()) {
                    response.end();
                }
            });
        } catch (IOException clientLeft) {
            LOG.info("{}: the client left before the end", what);
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
            cut(what, "stopped");
        } catch (Exception e) {
            LOG.error("{} failed after its first bytes; the response is cut", what, e);
            cut(what, e.toString());
        }
    }

    private void cut(String what, String why) {
        LOG.warn("{}: response cut ({})", what, why);
        context.runOnContext(ignored -> response.reset());
    }

    private void write(byte[] bytes) throws IOException, InterruptedException {
        if (gone) {
            throw new IOException("the client left");
        }
        CompletableFuture<Void> taken = new CompletableFuture<>();
        pending.set(taken);
        context.runOnContext(ignored -> {
            if (gone || response.closed()) {
                taken.completeExceptionally(new IOException("the client left"));
                return;
            }
            response.write(Buffer.buffer(bytes));
            if (response.writeQueueFull()) {
                response.drainHandler(drained -> taken.complete(null));
            } else {
                taken.complete(null);
            }
        });
        try {
            taken.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } finally {
            pending.compareAndSet(taken, null);
        }
    }

    private void left() {
        gone = true;
        CompletableFuture<Void> waiting = pending.get();
        if (waiting != null) {
            waiting.completeExceptionally(new IOException("the client left"));
        }
    }
}
