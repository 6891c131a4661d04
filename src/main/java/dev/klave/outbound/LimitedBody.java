package dev.klave.outbound;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An answer's body, read into memory up to a limit: a declared length over it fails before a byte
 * is read, and a body that grows past it fails as soon as it does, cancelling the subscription
 * (which closes the connection) — never after reading it all.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final long limit;
    private final long declared;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private volatile Flow.Subscription subscription;
    private volatile boolean abandoned;
    private long received;

    /** @param declared the {@code Content-Length}, or -1 when the answer declares none */
    LimitedBody(long limit, long declared) {
        this.limit = limit;
        this.declared = declared;
    }

    static LimitedBody of(HttpResponse.ResponseInfo head, long limit) {
        return new LimitedBody(limit, head.headers().firstValueAsLong("Content-Length").orElse(-1));
    }

    @Override
    public void onSubscribe(Flow.Subscription given) {
        subscription = given;
        if (abandoned) {
            given.cancel();
            return;
        }
        if (declared > limit) {
            given.cancel();
            result.completeExceptionally(tooLarge());
            return;
        }
        given.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            received += buffer.remaining();
            if (received > limit) {
                subscription.cancel();
                result.completeExceptionally(tooLarge());
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable failure) {
        result.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
        result.complete(bytes.toByteArray());
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    /** The deadline passed: stop reading and let the connection go. */
    void abandon() {
        abandoned = true;
        Flow.Subscription current = subscription;
        if (current != null) {
            current.cancel();
        }
    }

    private OutboundFailure tooLarge() {
        return new OutboundFailure(OutboundFailure.Kind.TOO_LARGE, "answer larger than " + limit + " bytes", null);
    }
}
