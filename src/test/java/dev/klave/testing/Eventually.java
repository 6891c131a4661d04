package dev.klave.testing;

import java.time.Duration;
import java.util.Optional;

/**
 * The one way tests wait for something another thread or process does: poll briefly, and fail naming
 * what was awaited when it does not happen in time — never a silent fall-through that leaves the
 * assertion after it to fail obscurely, or to pass.
 *
 * <p>A probe may throw: the exception fails the wait at once (it is not retried), with what was
 * awaited in the message and the exception as the cause.
 *
 * <p>{@link #stillTrueFor} is the other half: the bounded observation a negative assertion needs
 * ("the completion is still held", "the flush has not finished"), where nothing happens that a
 * test could wait for. Prefer a positive signal whenever one exists.
 */
public final class Eventually {
    private static final Duration POLL = Duration.ofMillis(20);

    private Eventually() {}

    /** A condition that may do I/O to find out. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Looks for a value, empty while it is not there yet. */
    @FunctionalInterface
    public interface Probe<T> {
        Optional<T> look() throws Exception;
    }

    /** Returns once {@code condition} holds; fails after {@code timeout} saying {@code what}. */
    public static void until(String what, Duration timeout, Condition condition) {
        value(what, timeout, () -> condition.holds() ? Optional.of(Boolean.TRUE) : Optional.empty());
    }

    /** The first value {@code probe} yields; fails after {@code timeout} saying {@code what}. */
    public static <T> T value(String what, Duration timeout, Probe<T> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<T> found = look(what, probe);
            if (found.isPresent()) {
                return found.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + timeout.toMillis() + " ms for " + what);
            }
            pause(what);
        }
    }

    /**
     * Returns once {@code condition} has held throughout {@code period}, checked every poll from
     * now to the end of it; fails as soon as it does not, saying {@code what} stopped being true
     * and when. For asserting that something does not happen (yet): keep {@code period} short.
     */
    public static void stillTrueFor(String what, Duration period, Condition condition) {
        long started = System.nanoTime();
        while (true) {
            boolean holds = look(what, () -> Optional.of(condition.holds())).orElseThrow();
            long elapsed = System.nanoTime() - started;
            if (!holds) {
                throw new AssertionError("no longer true after " + Duration.ofNanos(elapsed).toMillis() + " ms of "
                        + period.toMillis() + ": " + what);
            }
            if (elapsed >= period.toNanos()) {
                return;
            }
            pause(what);
        }
    }

    private static void pause(String what) {
        try {
            Thread.sleep(POLL); // between looks at a condition, always under a deadline or a period
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }

    private static <T> Optional<T> look(String what, Probe<T> probe) {
        try {
            return probe.look();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("failed while waiting for " + what + ": " + e, e);
        }
    }
}
