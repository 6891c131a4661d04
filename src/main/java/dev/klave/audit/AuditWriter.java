package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit of audit rows (spec 1 §4 "Proxy": no row, no forwarding): requests hand their row to a writer thread,
 * which stores everything that queued up meanwhile in one transaction and then tells each request
 * its row is durable. Many concurrent requests so share one commit instead of paying one each. A
 * failed batch fails every request in it: none of them is forwarded.
 *
 * <p>There are as many writer threads as the store has batches worth writing at once
 * ({@link AuditStore#parallelBatches()}): one on SQLite, two on PostgreSQL, where a row arriving
 * while a batch waits for its log flush would otherwise wait for that flush before its own.
 *
 * <p>Each batch's write returns the access generation as of its commit ({@link AuditStore#write}),
 * and the writer hands it to every request of the batch. A request that had its credential check
 * from memory so learns, with no query of its own, whether access changed anywhere between that
 * check and the moment its row was durable.
 *
 * <p>Completions (a request's status, once answered) wake nobody: the writer takes them with the
 * next rows, or, when no rows come, once {@link #HOLD_COMPLETIONS} has passed since it last
 * looked. At low load each request otherwise cost two commits, each a WAL flush on PostgreSQL, a
 * row arriving during a completions-only commit waited for it, and each completion woke the
 * writer thread for nothing (bench/RESULTS.md). Nothing is lost or hidden by the hold:
 * {@link #flush()} writes what is held, and audit reads call it first, so a client that reads
 * the audit after its answer always finds the status there (spec 1 §2).
 */
public final class AuditWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AuditWriter.class);
    private static final int MAX_BATCH = 512;
    static final Duration HOLD_COMPLETIONS = Duration.ofMillis(20);
    /** {@code SERVICE_AUDIT_TIMEOUT}'s default, for writers made without settings (tests, the CLI). */
    static final Duration RECORD_WAIT = Duration.ofSeconds(15);

    private final AuditStore store;
    private final AuditQueue queue = new AuditQueue(MAX_BATCH);
    private final List<Thread> threads;
    private final AtomicBoolean started = new AtomicBoolean();
    private final long holdNanos;
    private final RecordDeadlines deadlines;
    /** {@code klave_audit_commit_duration_seconds{result}}: each batch's write, committed or failed. */
    private final Timer committed;
    private final Timer failed;
    /** Why a writer thread died, once one has: from then on every row is refused at once. */
    private final AtomicReference<Throwable> died = new AtomicReference<>();

    private record Pending(AuditRow row, CompletableFuture<Long> durable) {}

    /**
     * Asks for everything queued before it to be written now; done once that has been tried, on
     * whichever thread it was taken by.
     */
    private record Flush(CompletableFuture<Void> done) {}

    public AuditWriter(AuditStore store) {
        this(store, RECORD_WAIT);
    }

    /**
     * @param recordWait the longest a row may take to be durable before {@link #record} fails
     *     ({@code SERVICE_AUDIT_TIMEOUT}): the request is then refused with 503, not forwarded
     */
    public AuditWriter(AuditStore store, Duration recordWait) {
        this(store, recordWait, new CompositeMeterRegistry());
    }

    /** @param registry where the commit time and the queue's depth go */
    public AuditWriter(AuditStore store, Duration recordWait, MeterRegistry registry) {
        this(store, HOLD_COMPLETIONS, store.parallelBatches(), recordWait, Ticker.system("klave-audit-deadlines"),
                registry);
    }

    AuditWriter(AuditStore store, Duration holdCompletions, int writers) {
        this(store, holdCompletions, writers, RECORD_WAIT);
    }

    /**
     * @param holdCompletions how long completions alone wait for rows to share a commit with
     * @param writers how many batches may be written at once, each by a thread of its own
     */
    AuditWriter(AuditStore store, Duration holdCompletions, int writers, Duration recordWait) {
        this(store, holdCompletions, writers, recordWait, Ticker.system("klave-audit-deadlines"));
    }

    /** @param ticker what drives the sweeps that fail rows not durable within the record wait */
    AuditWriter(AuditStore store, Duration holdCompletions, int writers, Duration recordWait, Ticker ticker) {
        this(store, holdCompletions, writers, recordWait, ticker, new CompositeMeterRegistry());
    }

    private AuditWriter(AuditStore store, Duration holdCompletions, int writers, Duration recordWait, Ticker ticker,
            MeterRegistry registry) {
        this.store = requireNonNull(store, "store is null");
        this.holdNanos = requireNonNull(holdCompletions, "holdCompletions is null").toNanos();
        requireNonNull(recordWait, "recordWait is null");
        if (recordWait.toMillis() < 1) {
            throw new IllegalArgumentException("recordWait must be at least 1 ms, got " + recordWait);
        }
        if (writers < 1) {
            throw new IllegalArgumentException("writers must be at least 1, got " + writers);
        }
        List<Thread> made = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            String name = writers == 1 ? "klave-audit-writer" : "klave-audit-writer-" + (i + 1);
            made.add(Thread.ofPlatform().daemon().name(name).unstarted(this::run));
        }
        this.threads = List.copyOf(made);
        this.deadlines = new RecordDeadlines(recordWait, ticker);
        this.committed = commitTimer(registry, "success");
        this.failed = commitTimer(registry, "failure");
        Gauge.builder("klave.audit.queue.depth", this, AuditWriter::queued)
                .description("Audit rows waiting for a writer thread (each holds its request until committed)")
                .register(registry);
    }

    /** Buckets from a page-cache commit to the record wait's order of magnitude. */
    private static Timer commitTimer(MeterRegistry registry, String result) {
        return Timer.builder("klave.audit.commit.duration")
                .description("Time to write one batch of audit rows and completions in one transaction")
                .tag("result", result)
                .serviceLevelObjectives(Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
                        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
                        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5),
                        Duration.ofSeconds(15))
                .register(registry);
    }

    /** Rows and flushes waiting for a writer thread, completions not counted (metrics). */
    public int queued() {
        return queue.depth();
    }

    /**
     * Starts the writer threads and the record deadlines' sweeps; rows recorded before wait in
     * the queue. Returns this writer, for {@code new AuditWriter(…).start()}.
     */
    public AuditWriter start() {
        if (started.compareAndSet(false, true)) {
            threads.forEach(Thread::start);
            deadlines.start();
        }
        return this;
    }

    /**
     * Queues the row; the future completes once it is committed, with the access generation as of
     * that commit, or fails if the row cannot be written — at once when the writer has stopped,
     * and with a {@link java.util.concurrent.TimeoutException} when it is not durable within the
     * record wait (a database that hangs: its request must be refused, not left waiting).
     */
    public CompletableFuture<Long> record(AuditRow row) {
        CompletableFuture<Long> durable = new CompletableFuture<>();
        Throwable cause = died.get();
        if (cause != null) {
            durable.completeExceptionally(new IllegalStateException("audit writer stopped", cause));
        } else if (!queue.add(new Pending(row, durable))) {
            durable.completeExceptionally(new IllegalStateException("audit writer closed"));
        } else {
            deadlines.watch(durable);
        }
        return durable;
    }

    /**
     * Why the writer stopped taking rows, if a writer thread died (an {@link Error} escaped it):
     * readiness fails on it, and every request is refused until the replica is restarted.
     */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(died.get());
    }

    /**
     * Queues the completion of a row; written with the next rows, or within
     * {@link #HOLD_COMPLETIONS} when none come, or at the next {@link #flush()}; nobody waits for
     * it, and no writer is woken for it.
     */
    public void complete(AuditRow.Completion completion) {
        queue.complete(completion);
    }

    /**
     * Writes at once everything queued before this call, held completions included. The future
     * completes once that write has been tried (failures are logged by the writer, as always);
     * after {@link #close()} there is nothing left to write and it is complete at once.
     */
    public CompletableFuture<Void> flush() {
        Flush flush = new Flush(new CompletableFuture<>());
        if (!queue.add(flush)) {
            flush.done().complete(null);
        }
        return flush.done();
    }

    /**
     * A writer's life. An {@link Error} (a defect, a stack overflow; an out-of-memory JVM exits,
     * see the launcher) must not leave requests waiting on rows nobody takes: the writer is marked
     * dead, what it held and what is queued are refused, and so is every row after.
     */
    private void run() {
        List<Object> held = new ArrayList<>();
        try {
            write(held);
        } catch (Throwable fatal) {
            died.compareAndSet(null, fatal);
            LOG.error("audit writer {} died: every proxied request is now refused (503) and /readyz fails; "
                    + "restart this replica", Thread.currentThread().getName(), fatal);
            IllegalStateException refused = new IllegalStateException("audit writer stopped", fatal);
            queue.close(); // rows added from now on are refused at once, not left for nobody
            held.addAll(queue.leftOver());
            for (Object item : held) {
                if (item instanceof Pending pending) {
                    pending.durable().completeExceptionally(refused);
                } else if (item instanceof Flush flush) {
                    flush.done().complete(null);
                }
            }
        }
    }

    /** Takes and writes batches until closed; {@code held} is the batch being written, for {@link #run}. */
    private void write(List<Object> held) {
        while (true) {
            AuditQueue.Batch batch;
            try {
                batch = queue.take(holdNanos);
            } catch (InterruptedException e) {
                continue; // nobody interrupts the writers; closing goes through the queue
            }
            if (batch == null) {
                return;
            }
            if (batch.items().isEmpty()) {
                continue;
            }
            held.clear();
            held.addAll(batch.items());
            try {
                store(batch.items());
            } catch (RuntimeException e) {
                // store() handles the database's failures; this is a defect, and the writer must
                // live on. Fail closed: requests whose rows were not settled are refused.
                LOG.error("audit writer: a batch of {} items failed", batch.items().size(), e);
                batch.items().forEach(item -> {
                    if (item instanceof Pending pending) {
                        pending.durable().completeExceptionally(e);
                    }
                });
            } finally {
                queue.written(batch);
            }
            held.clear();
            finishFlushes(batch);
        }
    }

    /** Completes the batch's flushes once the batches other writers took before it are written too. */
    private void finishFlushes(AuditQueue.Batch batch) {
        List<Flush> flushes = batch.items().stream()
                .filter(Flush.class::isInstance).map(Flush.class::cast).toList();
        if (flushes.isEmpty()) {
            return;
        }
        try {
            queue.awaitEarlier(batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushes.forEach(flush -> flush.done().complete(null));
    }

    private void store(List<Object> batch) {
        List<Pending> rows = new ArrayList<>();
        List<AuditRow.Completion> completions = new ArrayList<>();
        for (Object item : batch) {
            if (item instanceof Pending pending) {
                rows.add(pending);
            } else if (item instanceof AuditRow.Completion completion) {
                completions.add(completion);
            }
        }
        if (rows.isEmpty() && completions.isEmpty()) {
            return;
        }
        // One transaction for both: on PostgreSQL every commit waits for a log flush, and a
        // request's wait for its row is one commit instead of two (bench/RESULTS.md).
        long started = System.nanoTime();
        try {
            long value = store.write(rows.stream().map(Pending::row).toList(), completions);
            committed.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            settle(rows, value);
            return;
        } catch (RuntimeException e) {
            failed.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            LOG.warn("audit batch failed ({}); writing its rows and completions apart", e.getMessage());
        }
        // Apart, so that only rows that cannot be written refuse their requests, as before.
        try {
            if (!rows.isEmpty()) {
                settle(rows, store.write(rows.stream().map(Pending::row).toList(), List.of()));
            }
        } catch (RuntimeException e) {
            LOG.error("audit rows not written ({} requests refused): {}", rows.size(), e.getMessage());
            rows.forEach(pending -> pending.durable().completeExceptionally(e));
        }
        try {
            if (!completions.isEmpty()) {
                store.write(List.of(), completions);
            }
        } catch (RuntimeException e) {
            LOG.error("{} audit completions not written: {}", completions.size(), e.getMessage());
        }
    }

    /** Completes the requests of a committed batch with the access generation as of its commit. */
    private static void settle(List<Pending> rows, long value) {
        for (Pending pending : rows) {
            pending.durable().complete(value);
        }
    }

    /** Writes what is queued, then stops (SIGTERM: the audit is flushed before exiting). */
    @Override
    public void close() {
        queue.close();
        deadlines.close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try {
            for (Thread thread : threads) {
                thread.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Only when a writer did not stop in time: nothing is left to take these.
        for (Object item : queue.leftOver()) {
            if (item instanceof Flush flush) {
                flush.done().complete(null);
            } else if (item instanceof Pending pending) {
                pending.durable().completeExceptionally(new IllegalStateException("audit writer closed"));
            }
        }
    }
}
