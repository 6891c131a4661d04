package dev.klave.testing;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for something a background piece of Klave does, polling briefly, and fails naming what it
 * waited for when it does not happen in time — never a silent fall-through.
 */
public final class Eventually {
    private static final Duration POLL = Duration.ofMillis(20);

    private Eventually() {}

    /** Returns once {@code condition} holds; fails after {@code timeout} saying {@code what}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        value(what, timeout, () -> condition.getAsBoolean() ? Optional.of(Boolean.TRUE) : Optional.empty());
    }

    /** The first value {@code probe} yields; fails after {@code timeout} saying {@code what}. */
    public static <T> T value(String what, Duration timeout, Supplier<Optional<T>> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<T> found = probe.get();
            if (found.isPresent()) {
                return found.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + timeout.toMillis() + " ms for " + what);
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
