package dev.klave.testing;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Answers that never end well, for the fakes' HTTP servers ({@link TestingOddProvider},
 * {@link TestingForge}): the head at once, then a body that trickles, one that never ends, or one
 * that declares 700 MiB. Each is bounded here too (a minute, or a GiB) and stops as soon as the
 * other side lets go; {@link #lastWritten} says how much had been written by then.
 */
public final class TestingBodies {
    /** How a misbehaving answer's body goes. */
    public enum Misbehaviour {
        /** A byte every 200 ms after the head, for a minute at most. */
        TRICKLE,
        /** Chunked, without end (a GiB at most), as fast as the other side reads. */
        ENDLESS,
        /** {@code Content-Length} of 700 MiB, then as fast as the other side reads. */
        HUGE
    }

    private static final long HUGE_LENGTH = 700L * 1024 * 1024;
    private static final long MOST = 1024L * 1024 * 1024;
    private static final Duration TRICKLE_FOR = Duration.ofMinutes(1);

    private volatile CompletableFuture<Long> lastWritten = CompletableFuture.completedFuture(0L);

    /** Plays {@code how} on {@code exchange}; returns once the other side let go (or the bound is reached). */
    public void play(HttpExchange exchange, Misbehaviour how) {
        CompletableFuture<Long> written = new CompletableFuture<>();
        lastWritten = written;
        long sent = 0;
        try {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, how == Misbehaviour.HUGE ? HUGE_LENGTH : 0);
            OutputStream body = exchange.getResponseBody();
            if (how == Misbehaviour.TRICKLE) {
                long end = System.nanoTime() + TRICKLE_FOR.toNanos();
                body.write('{');
                body.flush();
                sent++;
                while (System.nanoTime() < end) {
                    Thread.sleep(200); // the trickling peer's pace: a byte each 200 ms
                    body.write(' ');
                    body.flush();
                    sent++;
                }
            } else {
                byte[] chunk = new byte[64 * 1024];
                Arrays.fill(chunk, (byte) ' ');
                long most = how == Misbehaviour.HUGE ? HUGE_LENGTH : MOST;
                while (sent < most) {
                    body.write(chunk);
                    sent += chunk.length;
                }
            }
        } catch (IOException e) {
            // The other side let go: what it was meant to do.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            written.complete(sent);
        }
    }

    /** The bytes of body the last misbehaving answer had written when it stopped, waiting up to {@code limit}. */
    public long lastWritten(Duration limit) {
        try {
            return lastWritten.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("the misbehaving answer was still being written after " + limit, e);
        }
    }
}
