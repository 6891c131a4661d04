package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.Eventually;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Issue 51 §6, the mechanism under the mixed writers' 500s: a writer on a virtual thread that
 * parks while it holds the write lock (any contended lock does it: SecureRandom's, in the measured
 * case) needs a carrier thread again to commit, while more writers than there are carriers wait
 * for it. On SQLite those writers waited in SQLite's busy handler, in native code, pinning every
 * carrier: the holder could not run until they failed with {@code SQLITE_BUSY} after the 10 s
 * busy timeout. Now they wait their turn parked, and all of them write.
 */
abstract class WriterTurnsConformance extends StoreConformance {
    @Override
    protected void setUp(Database database) {
        database.withHandle(handle -> handle.execute("CREATE TABLE turns (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)"));
        database.write(handle -> handle.execute("INSERT INTO turns (id, n) VALUES (1, 0)"));
    }

    private void increment() {
        database().write(handle -> handle.execute("UPDATE turns SET n = n + 1 WHERE id = 1"));
    }

    @Test
    void aWriterParkedWhileHoldingTheLockCommitsAndEveryWriterWaitingForItWrites() throws Exception {
        // Virtual threads run on as many carrier threads as there are cores: more writers than that wait.
        int carriers = Runtime.getRuntime().availableProcessors();
        int waiting = carriers + 2;
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        Thread holder = Thread.ofVirtual().name("holder").start(() -> {
            try {
                database().inTransaction(() -> {
                    increment();
                    holding.countDown();
                    // Parked, as on a contended lock: the virtual thread gives its carrier back.
                    awaitQuietly(goOn);
                    increment();
                    return null;
                });
            } catch (RuntimeException e) {
                failures.add(e);
            }
        });
        assertThat(holding.await(10, java.util.concurrent.TimeUnit.SECONDS)).as("the holder wrote").isTrue();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < waiting; i++) {
            waiters.add(Thread.ofVirtual().name("waiter-" + i).start(() -> {
                try {
                    increment();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        // As many waiting as there are carriers: when they wait in native code no other virtual thread runs.
        Eventually.until("waiters waiting for the database (parked, or in native code)", Duration.ofSeconds(10),
                () -> waiters.stream().filter(WriterTurnsConformance::waits).count() >= carriers);

        goOn.countDown();
        for (Thread thread : waiters) {
            assertThat(thread.join(Duration.ofSeconds(5))).as(thread.getName() + " wrote within 5 s").isTrue();
        }
        assertThat(holder.join(Duration.ofSeconds(5))).as("the holder committed").isTrue();

        assertThat(failures).as("writes that failed").isEmpty();
        int written = database().withHandle(handle -> handle.createQuery("SELECT n FROM turns WHERE id = 1")
                .mapTo(Integer.class).one());
        assertThat(written).as("every write, once").isEqualTo(2 + waiting);
    }

    /** Blocked: parked in Java, or running native code (SQLite's busy handler sleeps there). */
    private static boolean waits(Thread thread) {
        Thread.State state = thread.getState();
        if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED) {
            return true;
        }
        StackTraceElement[] stack = thread.getStackTrace();
        return state == Thread.State.RUNNABLE && stack.length > 0 && stack[0].isNativeMethod();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
