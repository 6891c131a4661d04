package dev.klave.outbound;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Closes a socket when a deadline passes, which ends whatever blocking connect, handshake or read
 * is under way on it — a socket timeout bounds one read, not a trickle of many. Closing the
 * watchdog stops it.
 */
final class Watchdog implements AutoCloseable {
    private final Thread thread;
    private volatile boolean fired;

    private Watchdog(Closeable target, long end) {
        this.thread = Thread.ofVirtual().name("klave-outbound-deadline").unstarted(() -> watch(target, end));
    }

    /** @param end the deadline, in {@link System#nanoTime()} terms */
    static Watchdog closingAt(Closeable target, long end) {
        Watchdog watchdog = new Watchdog(target, end);
        watchdog.thread.start();
        return watchdog;
    }

    private void watch(Closeable target, long end) {
        try {
            TimeUnit.NANOSECONDS.sleep(end - System.nanoTime());
        } catch (InterruptedException stopped) {
            return;
        }
        fired = true;
        try {
            target.close();
        } catch (IOException ignored) {
            // Closing is all that was wanted; the reader sees its socket closed either way.
        }
    }

    /** Whether the deadline passed and the socket was closed for it. */
    boolean fired() {
        return fired;
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
