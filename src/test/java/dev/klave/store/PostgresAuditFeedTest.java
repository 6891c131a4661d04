package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.audit.AuditRow;
import dev.klave.audit.FeedPosition;
import dev.klave.audit.FeedStore;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingDatabase;
import java.time.Duration;
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
        AtomicBoolean lateCommitted = new AtomicBoolean();
        CountDownLatch lateOpen = new CountDownLatch(1);
        CountDownLatch writersDone = new CountDownLatch(4);
        String late = UUID.randomUUID().toString();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            // A transaction that writes an event first — the smallest transaction id of all — and
            // commits only once every writer has committed its entries.
            CompletableFuture<Void> slow = CompletableFuture.runAsync(() -> database().withHandle(handle -> {
                handle.begin();
                handle.createUpdate("INSERT INTO control_events (id, at, type) VALUES (:id, 0, 'grant.create')")
                        .bind("id", late).execute();
                written.add(late);
                lateOpen.countDown();
                await(writersDone);
                handle.commit();
                lateCommitted.set(true);
                return null;
            }), threads);
            for (int w = 0; w < 4; w++) {
                CompletableFuture.runAsync(() -> {
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
                    writersDone.countDown();
                }, threads);
            }
            // Polls while they write and after, until it has every entry (an older transaction
            // anywhere on the server holds entries back; it never makes the feed skip one).
            FeedPosition[] after = {start};
            Eventually.until("every entry written, through the feed", Duration.ofSeconds(60), () -> {
                List<FeedStore.Entry> read = feed.after(after[0], 25);
                read.forEach(entry -> received.add(idOf(entry)));
                if (!read.isEmpty()) {
                    after[0] = read.getLast().position();
                }
                return lateCommitted.get() && received.containsAll(written);
            });
            slow.get(10, TimeUnit.SECONDS);
        }

        // Each entry came once. (An entry of an earlier test held back by a transaction elsewhere
        // on the server when this one began may arrive too: it is no entry of this test's.)
        assertThat(received).doesNotHaveDuplicates().containsAll(written).contains(late);
        assertThat(feed.after(lastOf(start, received.size()), 100)).isEmpty();
    }

    /** The position after the first {@code count} entries from {@code start}. */
    private FeedPosition lastOf(FeedPosition start, int count) {
        List<FeedStore.Entry> read = drain(start, 1000);
        return read.isEmpty() ? start : read.get(Math.min(count, read.size()) - 1).position();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the other writers did not get that far in 30 s");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
