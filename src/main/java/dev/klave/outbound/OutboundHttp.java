package dev.klave.outbound;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Untrusted;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;

/**
 * One client for calls out of Klave, every call bounded by one deadline and one size limit (see
 * the package note). The JDK client's own timeouts do not suffice: its request timeout ends when
 * the answer's head arrives, and {@code BodyHandlers.ofByteArray()} reads a body of any size before
 * anyone can look at it. Here the whole call is waited for with {@code get(deadline)} and then
 * cancelled, and the body is counted as it arrives.
 *
 * <p>HTTP/1.1, no redirects followed (a redirect is an answer like any other, for the caller to
 * refuse), TLS as given.
 */
public final class OutboundHttp {
    /** A connection not made in this long will not be made; the call's deadline still bounds the rest. */
    private static final Duration CONNECT = Duration.ofSeconds(5);

    private final HttpClient client;
    private final Duration deadline;
    private final long answerLimit;

    private OutboundHttp(HttpClient client, Duration deadline, long answerLimit) {
        this.client = requireNonNull(client, "client is null");
        this.deadline = requireNonNull(deadline, "deadline is null");
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline must be positive");
        }
        if (answerLimit <= 0) {
            throw new IllegalArgumentException("answerLimit must be positive");
        }
        this.answerLimit = answerLimit;
    }

    /**
     * @param tls what the other side's certificate must chain to
     * @param deadline how long one call may take, from connecting to the last byte of the answer
     * @param answerLimit the most bytes an answer's body may have
     */
    public static OutboundHttp over(SSLContext tls, Duration deadline, long answerLimit) {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(requireNonNull(tls, "tls is null"))
                .connectTimeout(requireNonNull(deadline, "deadline is null").compareTo(CONNECT) < 0 ? deadline : CONNECT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        return new OutboundHttp(client, deadline, answerLimit);
    }

    public Duration deadline() {
        return deadline;
    }

    public long answerLimit() {
        return answerLimit;
    }

    /**
     * Sends {@code request} and reads the whole answer, or fails once the deadline has passed or
     * the body has passed the limit — whichever comes first; the connection is let go either way.
     */
    public Answer send(HttpRequest request) throws OutboundFailure {
        AtomicReference<LimitedBody> body = new AtomicReference<>();
        CompletableFuture<HttpResponse<byte[]>> call = client.sendAsync(request, head -> {
            LimitedBody limited = LimitedBody.of(head, answerLimit);
            body.set(limited);
            return limited;
        });
        try {
            HttpResponse<byte[]> response = call.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
            return new Answer(response.statusCode(), response.headers(), response.body());
        } catch (TimeoutException e) {
            stop(call, body);
            throw new OutboundFailure(OutboundFailure.Kind.DEADLINE, "no complete answer within "
                    + seconds(deadline), e);
        } catch (InterruptedException e) {
            stop(call, body);
            Thread.currentThread().interrupt();
            throw new OutboundFailure(OutboundFailure.Kind.FAILED, "interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            for (Throwable at = cause; at != null; at = at.getCause()) {
                if (at instanceof OutboundFailure failure) {
                    // The body passed the limit; the client may have wrapped what LimitedBody raised.
                    throw failure;
                }
            }
            throw new OutboundFailure(OutboundFailure.Kind.FAILED, Untrusted.failure(cause), cause);
        }
    }

    private static void stop(CompletableFuture<?> call, AtomicReference<LimitedBody> body) {
        LimitedBody reading = body.get();
        if (reading != null) {
            reading.abandon();
        }
        call.cancel(true);
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }
}
