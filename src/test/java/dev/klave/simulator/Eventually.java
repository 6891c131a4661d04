package dev.klave.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Waits for a condition that another process or thread makes true, failing after a deadline. */
final class Eventually {
    private Eventually() {
    }

    static void await(String what, Duration limit, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(limit);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out waiting until " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what);
            }
        }
    }
}
