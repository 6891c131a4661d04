package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.audit.AuditRow;
import dev.klave.audit.FeedPosition;
import dev.klave.audit.FeedStore;
import dev.klave.testing.TestingDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class PostgresAuditFeedTest extends AuditFeedConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.postgres();
    }

    /**
     * Issue 32: under concurrent writers — some of whose transactions take their number early and
     * commit late — a poller reading the feed while they write receives every entry exactly once.
     * An id or a time alone would pass over an entry committed after a later one was read.
     */
    @Test
    void aPollerMissesNoEntryWhileConcurrentWritersCommitOutOfOrder() throws Exception {
        FeedPosition start = end();
        Set<String> written = java.util.concurrent.ConcurrentHashMap.newKeySet();
        ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        CountDownLatch lateOpen = new CountDownLatch(1);
        String late = UUID.randomUUID().toString();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            // A transaction that writes an event, then waits while others commit, then commits.
            CompletableFuture<Void> slow = CompletableFuture.runAsync(() -> database().withHandle(handle -> {
                handle.begin();
                handle.createUpdate("INSERT INTO control_events (id, at, type) VALUES (:id, 0, 'grant.create')")
                        .bind("id", late).execute();
                lateOpen.countDown();
                sleep(Duration.ofMillis(800));
                handle.commit();
                written.add(late);
                return null;
            }), threads);
            List<CompletableFuture<Void>> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                writers.add(CompletableFuture.runAsync(() -> {
                    await(lateOpen);
                    for (int i = 0; i < 60; i++) {
                        String id = ids.next();
                        audit.write(List.of(pending(id)), List.of());
                        audit.write(List.of(), List.of(new AuditRow.Completion(id, 200, Optional.empty(),
                                java.time.Instant.now())));
                        written.add(id);
                        String event = UUID.randomUUID().toString();
                        events.append(event(event));
                        written.add(event);
                    }
                }, threads));
            }
            // Polls while they write, then until it has as many entries as were written (an older
            // transaction anywhere on the server holds entries back; it never makes the feed skip).
            CompletableFuture<Void> poller = CompletableFuture.runAsync(() -> {
                FeedPosition after = start;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (System.nanoTime() < deadline) {
                    if (!writing.get() && received.size() >= written.size()) {
                        return;
                    }
                    List<FeedStore.Entry> read = feed.after(after, 25);
                    read.forEach(entry -> received.add(idOf(entry)));
                    if (!read.isEmpty()) {
                        after = read.getLast().position();
                    } else {
                        sleep(Duration.ofMillis(5));
                    }
                }
            }, threads);
            CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            slow.get(60, TimeUnit.SECONDS);
            writing.set(false);
            poller.get(60, TimeUnit.SECONDS);
        }

        // Nothing more arrives after the count is reached: each entry came once.
        assertThat(feed.after(lastOf(start, received.size()), 100)).isEmpty();
        assertThat(received).hasSize(written.size());
        assertThat(new HashSet<>(received)).isEqualTo(written);
        assertThat(received).contains(late);
    }

    /** The position after the first {@code count} entries from {@code start}. */
    private FeedPosition lastOf(FeedPosition start, int count) {
        List<FeedStore.Entry> read = drain(start, 1000);
        return read.isEmpty() ? start : read.get(Math.min(count, read.size()) - 1).position();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
