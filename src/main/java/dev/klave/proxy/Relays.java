package dev.klave.proxy;

import dev.klave.messages.Text;
import io.netty.channel.ChannelConfig;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

/** Moving the cluster's bytes to the client: answers, and both directions of upgraded connections. */
final class Relays {
    /**
     * Hop-by-hop fields (RFC 9110 §7.6.1) and what Klave sets itself or never passes on, matched in
     * any case without lowering each name of every answer (issue 44's profile).
     */
    private static final Set<String> DROPPED_RESPONSE_HEADERS = caseless("connection", "keep-alive",
            "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "set-cookie", "audit-id");

    private static Set<String> caseless(String... names) {
        TreeSet<String> set = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        set.addAll(List.of(names));
        return Collections.unmodifiableSet(set);
    }

    /** Whether an answer's header stays behind: hop-by-hop, or one Klave sets itself. */
    static boolean dropped(String name) {
        return DROPPED_RESPONSE_HEADERS.contains(name);
    }

    /** How a relayed answer ended: its status and, when it broke off, why. */
    @FunctionalInterface
    interface Ended {
        void end(int status, Optional<String> error);
    }

    private Relays() {}

    /**
     * Sends the client's body to the cluster with back-pressure, and ends the cluster's request
     * when the body ends. By hand rather than {@code send(request)}: its pipe ends the cluster's
     * request when the client's body fails, so a body cut short by a decoding error went out as
     * if it were whole. A failure is the caller's to handle ({@link ProxiedRequest}).
     */
    static void body(HttpServerRequest from, HttpClientRequest to) {
        // Framed as it came (RFC 9112 §6.3): a length is kept, chunks stay chunks, and a request
        // with neither — kubectl's GET — has no body and goes on without one, not as an empty
        // chunked body that a front end may refuse on a GET or read as a second request.
        if (!to.headers().contains(HttpHeaders.CONTENT_LENGTH)
                && from.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
            to.setChunked(true);
        }
        from.handler(chunk -> {
            to.write(chunk);
            if (to.writeQueueFull()) {
                from.pause();
                to.drainHandler(ignored -> from.resume());
            }
        });
        from.endHandler(ignored -> to.end());
        from.resume();
    }

    /**
     * Relays the cluster's answer: status, headers minus hop-by-hop ones, and the body with
     * back-pressure; {@code ended} learns how it ended.
     */
    static void answer(HttpClientResponse upstream, HttpServerResponse response, Ended ended) {
        response.setStatusCode(upstream.statusCode());
        response.setStatusMessage(upstream.statusMessage());
        MultiMap headers = upstream.headers();
        MultiMap relayed = response.headers();
        // What the cluster says replaces what was set before it answered (Strict-Transport-Security
        // on every answer): those are one or two names, copied; the answer's own are not.
        for (String name : relayed.names()) {
            if (!dropped(name) && headers.contains(name)) {
                relayed.remove(name);
            }
        }
        // Entry by entry: no set of names and no list per name made for each answer.
        for (Map.Entry<String, String> header : headers) {
            if (!dropped(header.getKey())) {
                relayed.add(header.getKey(), header.getValue());
            }
        }
        if (headers.get(HttpHeaders.CONTENT_LENGTH) == null) {
            response.setChunked(true);
            // A watch may stay silent for minutes: the client must see the answer start now.
            response.writeHead();
        }
        int status = upstream.statusCode();
        // By hand rather than pipeTo: a pipe keeps writing to a response whose client has hung up
        // and Vert.x then logs "Response has already been written" with a stack trace for every
        // such request (seen in bench/run whenever wrk stopped). The close handler in forward()
        // records the 499 and closes the cluster connection; the chunks still in flight are dropped.
        upstream.handler(chunk -> {
            if (response.closed()) {
                return;
            }
            response.write(chunk);
            if (response.writeQueueFull()) {
                upstream.pause();
                response.drainHandler(ignored -> upstream.resume());
            }
        });
        upstream.exceptionHandler(failure -> {
            ended.end(status, Optional.of(Text.ANSWER_INTERRUPTED.text(failure.getMessage())));
            response.reset();
        });
        upstream.endHandler(ignored -> {
            if (!response.closed()) {
                response.end();
            }
            ended.end(status, Optional.empty());
        });
    }

    /**
     * Copies one direction of an upgraded connection with back-pressure. When {@code from} ends,
     * {@code finished} runs only once the last write to {@code to} has reached the socket: closing
     * earlier drops what is still queued, and an exec stream that the cluster closed first arrived
     * short (bench/run: 16 MiB streams up to 3 MiB short, nearly always with OpenSSL's TLS).
     *
     * <p>Back-pressure stops the socket reading ({@link Reading}) rather than pausing the
     * {@link NetSocket}: Vert.x 5.0 signals a paused socket's end ahead of the bytes it still holds
     * (vert.x issue 5748, fixed after 5.0.7), so the stream was finished, and its last bytes
     * dropped, before they were copied. Not reading keeps them in the kernel, and what Vert.x has
     * already read it hands over in order, before the end.
     */
    static void bytes(NetSocket from, NetSocket to, Runnable finished) {
        bytes(from, to, finished, Buffer::length);
    }

    /** What a recorded session's relay asks of each piece before it goes on (issues 42 and 51). */
    @FunctionalInterface
    interface Gate {
        /**
         * Sees a piece about to be relayed (the recorder's copy is taken here; it never changes the
         * bytes) and says how many of its bytes go on: fewer than all stops the relay there, for
         * good — a required recording's cap.
         */
        int pass(Buffer bytes);
    }

    /**
     * As {@link #bytes(NetSocket, NetSocket, Runnable)}, showing each piece to {@code gate} before
     * it is written (a session's recording): once the gate keeps bytes back, what it let through is
     * written, nothing more is relayed from {@code from} and it stops being read; the gate's failure
     * is the recording's, never the session's.
     */
    static void bytes(NetSocket from, NetSocket to, Runnable finished, Gate gate) {
        AtomicReference<Future<Void>> lastWrite =
                new AtomicReference<>(Future.succeededFuture());
        Reading reading = Reading.of(from);
        java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
        from.handler(bytes -> {
            if (stopped.get()) {
                return;
            }
            int passed;
            try {
                passed = gate.pass(bytes);
            } catch (RuntimeException e) {
                // The recording's problem, never the session's.
                passed = bytes.length();
            }
            if (passed < bytes.length()) {
                stopped.set(true);
                reading.stop();
                if (passed > 0) {
                    lastWrite.set(to.write(bytes.getBuffer(0, passed)));
                }
                return;
            }
            lastWrite.set(to.write(bytes));
            if (to.writeQueueFull()) {
                reading.stop();
                to.drainHandler(ignored -> reading.go());
            }
        });
        from.endHandler(ignored -> lastWrite.get().onComplete(written -> finished.run()));
        from.exceptionHandler(failure -> finished.run());
        // The cluster's socket comes paused and not reading from UpgradeAnswers.
        from.resume();
        reading.go();
    }

    /**
     * Stops and restarts reading from a socket on its channel (Netty's auto-read), which Vert.x's
     * own pause leaves alone as long as the socket is never paused. Every socket Vert.x hands out
     * is a {@link NetSocketInternal}; the cast fails loudly if that ever changes, rather than
     * falling back on the pause that loses bytes.
     */
    record Reading(ChannelConfig channel) {
        static Reading of(NetSocket socket) {
            return new Reading(((NetSocketInternal) socket).channelHandlerContext().channel().config());
        }

        void stop() {
            channel.setAutoRead(false);
        }

        void go() {
            channel.setAutoRead(true);
        }
    }
}
