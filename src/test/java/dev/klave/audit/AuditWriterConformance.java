package dev.klave.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.audit.view.AuditQueries;
import dev.klave.store.Database;
import dev.klave.store.JdbiAccessChanges;
import dev.klave.store.JdbiAuditStore;
import dev.klave.store.StoreConformance;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAuditRows;
import dev.klave.testing.TestingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Completions share the commit of the next rows instead of committing alone, and are never
 * lost or hidden: written when the hold passes with no rows, when the writer closes, and before
 * any audit read. Run on each dialect with as many writers as its store asks for (one on SQLite,
 * two on PostgreSQL); what two writers add is tested on its own at the end.
 */
abstract class AuditWriterConformance extends StoreConformance {
    private static final Instant AT = Instant.parse("2026-11-25T10:00:00Z");
    /** How long a test watches for something that must not happen (the writers' holds here are 30 s). */
    private static final Duration HELD = Duration.ofMillis(300);
    private static final AuditRow.Request PODS = TestingAuditRows.request("list", "team-a", "pods",
            "/api/v1/namespaces/team-a/pods");

    private final AuditIds ids = new AuditIds(new TestingClock());
    private JdbiAuditStore store;
    private JdbiAccessChanges accessChanges;

    @Override
    protected void setUp(Database database) {
        store = new JdbiAuditStore(database);
        accessChanges = new JdbiAccessChanges(database);
    }

    private AuditWriter writer(Duration hold) {
        return new AuditWriter(store, hold, store.parallelBatches()).start();
    }

    private AuditRow row(String id) {
        return TestingAuditRows.opened(id, AT, "prod-1", PODS);
    }

    /** A request whose row is durable and whose answer has been handed to the writer. */
    private String answered(AuditWriter writer, int status, Optional<String> error) throws Exception {
        String id = ids.next();
        writer.record(row(id)).get(5, TimeUnit.SECONDS);
        writer.complete(new AuditRow.Completion(id, status, error, AT));
        return id;
    }

    private Optional<Integer> status(String id) {
        return store.findById(id).orElseThrow().outcome().map(AuditRow.Outcome::status);
    }

    /** A tool's request goes through the same writer as the proxy's, and keeps how it came. */
    @Test
    void aToolRowIsDurableWithItsToolAndSessionOnceRecorded() throws Exception {
        try (AuditWriter writer = writer(Duration.ofMillis(100))) {
            String id = ids.next();
            AuditRow fromTool = TestingAuditRows.opened(id, AT, "prod-1",
                    TestingAuditRows.through(PODS, Channel.tool("scale", "ses_7")));

            writer.record(fromTool).get(5, TimeUnit.SECONDS);

            assertThat(store.findById(id)).contains(fromTool);
        }
    }

    @Test
    void aCompletionWaitsForTheNextRowsAndSharesTheirCommit() throws Exception {
        try (AuditWriter writer = writer(Duration.ofSeconds(30))) {
            String first = answered(writer, 200, Optional.empty());
            // A completion wakes no writer: there is no event to wait for, so its staying unwritten is watched.
            Eventually.stillTrueFor("the completion held for the next rows", HELD, () -> status(first).isEmpty());

            String second = ids.next();
            database().write(handle -> handle.execute("UPDATE access_changes SET generation = generation + 7"));
            long value = writer.record(row(second)).get(5, TimeUnit.SECONDS);

            assertThat(value).as("the access generation as of the commit").isEqualTo(accessChanges.generation());
            assertThat(status(first)).as("committed with the second row").contains(200);
            assertThat(status(second)).isEmpty();
        }
    }

    @Test
    void withNoRowsComingACompletionIsWrittenOnceTheHoldPasses() throws Exception {
        try (AuditWriter writer = writer(Duration.ofMillis(100))) {
            String id = answered(writer, 499, Optional.of("cliente desconectado"));

            Eventually.until("the held completion written once the hold passed", Duration.ofSeconds(10),
                    () -> status(id).isPresent());
            assertThat(status(id)).contains(499);
            assertThat(store.findById(id).orElseThrow().outcome().flatMap(AuditRow.Outcome::error))
                    .contains("cliente desconectado");
        }
    }

    @Test
    void closingWritesHeldCompletions() throws Exception {
        AuditWriter writer = writer(Duration.ofSeconds(30));
        String id = answered(writer, 200, Optional.empty());
        Eventually.stillTrueFor("the completion held", HELD, () -> status(id).isEmpty());

        long started = System.nanoTime();
        writer.close();

        assertThat(status(id)).contains(200);
        assertThat(System.nanoTime() - started).as("close does not wait out the hold")
                .isLessThan(TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void flushWritesHeldCompletionsAtOnce() throws Exception {
        try (AuditWriter writer = writer(Duration.ofSeconds(30))) {
            String id = answered(writer, 403, Optional.of("prohibido"));

            writer.flush().get(5, TimeUnit.SECONDS);

            assertThat(status(id)).contains(403);
        }
    }

    @Test
    void anAuditReadRightAfterTheAnswerFindsItsStatus() throws Exception {
        try (AuditWriter writer = writer(Duration.ofSeconds(30))) {
            AuditQueries queries = new AuditQueries(store, writer);
            AuditQueries.Viewer admin = new AuditQueries.Viewer("6f1c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e93", true);
            String first = ids.next();
            String second = ids.next();
            writer.record(row(first)).get(5, TimeUnit.SECONDS);
            writer.record(row(second)).get(5, TimeUnit.SECONDS);
            writer.complete(new AuditRow.Completion(first, 200, Optional.empty(), AT));

            assertThat(queries.one(first, admin).outcome().map(AuditRow.Outcome::status)).contains(200);

            writer.complete(new AuditRow.Completion(second, 201, Optional.empty(), AT));
            AuditFilter all = new AuditFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), true);
            assertThat(queries.page(all, 1, Optional.empty(), admin).events())
                    .filteredOn(row -> row.id().equals(second)).singleElement()
                    .extracting(row -> row.outcome().map(AuditRow.Outcome::status)).isEqualTo(Optional.of(201));
        }
    }

    @Test
    void afterCloseAFlushIsDoneAtOnce() throws Exception {
        AuditWriter writer = writer(Duration.ofSeconds(30));
        writer.close();

        assertThat(writer.flush()).succeedsWithin(Duration.ofSeconds(1));
    }

    @Test
    void withTwoWritersARowDoesNotWaitForABatchStillCommitting() throws Exception {
        HeldFirstWrite held = new HeldFirstWrite(store);
        try (AuditWriter writer = new AuditWriter(held, Duration.ofSeconds(30), 2).start()) {
            String slow = ids.next();
            CompletableFuture<Long> slowDurable = writer.record(row(slow));
            assertThat(held.entered.await(5, TimeUnit.SECONDS)).isTrue();

            String fast = ids.next();
            assertThat(writer.record(row(fast)).get(5, TimeUnit.SECONDS)).isEqualTo(accessChanges.generation());
            assertThat(store.findById(fast)).isPresent();
            assertThat(slowDurable).isNotDone();

            held.release.countDown();
            assertThat(slowDurable.get(5, TimeUnit.SECONDS)).isEqualTo(accessChanges.generation());
            assertThat(store.findById(slow)).isPresent();
        }
    }

    @Test
    void aFlushWaitsForTheBatchAnotherWriterIsStillCommitting() throws Exception {
        HeldFirstWrite held = new HeldFirstWrite(store);
        try (AuditWriter writer = new AuditWriter(held, Duration.ofSeconds(30), 2).start()) {
            String id = ids.next();
            writer.record(row(id));
            assertThat(held.entered.await(5, TimeUnit.SECONDS)).isTrue();

            CompletableFuture<Void> flush = writer.flush();
            Eventually.stillTrueFor("the flush waiting for a row queued before it, not written yet", HELD,
                    () -> !flush.isDone());

            held.release.countDown();
            flush.get(5, TimeUnit.SECONDS);
            assertThat(store.findById(id)).isPresent();
        }
    }

    @Test
    void aRowNotDurableWithinTheRecordWaitFailsItsRequestInsteadOfHoldingIt() throws Exception {
        HeldFirstWrite held = new HeldFirstWrite(store);
        TestingTicker ticker = new TestingTicker();
        Duration recordWait = Duration.ofMillis(300);
        try (AuditWriter writer = new AuditWriter(held, Duration.ofSeconds(30), 1, recordWait, ticker).start()) {
            CompletableFuture<Long> durable = writer.record(row(ids.next()));
            assertThat(held.entered.await(5, TimeUnit.SECONDS)).as("the row's batch is being written").isTrue();

            ticker.advance(recordWait.minusNanos(1));
            assertThat(durable).as("still within the record wait").isNotDone();

            ticker.advance(RecordDeadlines.SWEEP_EVERY);
            assertThat(durable).isCompletedExceptionally();
            assertThatThrownBy(() -> durable.getNow(null))
                    .hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
            held.release.countDown();
        }
        assertThat(ticker.running()).as("closing the writer stops its sweeps").isZero();
    }

    @Test
    void aWriterKilledByAnErrorRefusesWhatItHeldWhatWaitsAndEveryRowAfter() throws Exception {
        DyingWrite dying = new DyingWrite(store);
        try (AuditWriter writer = new AuditWriter(dying, Duration.ofSeconds(30), 1).start()) {
            String before = ids.next();
            assertThat(writer.record(row(before)).get(5, TimeUnit.SECONDS)).isNotNull();
            dying.die.set(true);

            CompletableFuture<Long> held = writer.record(row(ids.next()));

            assertThatThrownBy(() -> held.get(5, TimeUnit.SECONDS)).hasRootCauseInstanceOf(StackOverflowError.class);
            assertThat(writer.failure()).get().isInstanceOf(StackOverflowError.class);
            long started = System.nanoTime();
            CompletableFuture<Long> after = writer.record(row(ids.next()));
            assertThatThrownBy(() -> after.get(5, TimeUnit.SECONDS)).hasMessageContaining("audit writer");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
            assertThat(store.findById(before)).isPresent();
        }
    }

    /** The store, until {@code die} is set: then its next write throws an {@link Error}, as a defect would. */
    private static final class DyingWrite extends ForwardingAuditStore {
        final AtomicBoolean die = new AtomicBoolean();

        DyingWrite(AuditStore store) {
            super(store, 1);
        }

        @Override
        public long write(List<AuditRow> rows, List<AuditRow.Completion> completions) {
            if (die.get()) {
                throw new StackOverflowError("a defect in the audit writer");
            }
            return super.write(rows, completions);
        }
    }

    /** The store, except that its first batch waits to be released: a commit that takes long. */
    private static final class HeldFirstWrite extends ForwardingAuditStore {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final AtomicBoolean first = new AtomicBoolean(true);

        HeldFirstWrite(AuditStore store) {
            super(store, 2);
        }

        @Override
        public long write(List<AuditRow> rows, List<AuditRow.Completion> completions) {
            if (first.getAndSet(false)) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            return super.write(rows, completions);
        }
    }
}
