package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit of audit rows (issue "proxy" §3): requests hand their row to one writer thread,
 * which stores everything that queued up meanwhile in one transaction and then tells each request
 * its row is durable. Many concurrent requests so share one commit instead of paying one each. A
 * failed batch fails every request in it: none of them is forwarded.
 *
 * <p>At each commit the writer reads one value for the whole batch ({@code afterCommit}; the
 * proxy passes its shared access counter), after the commit or, where the store can promise that
 * nothing commits in between, inside it ({@link AuditStore#write}), and hands it to every request
 * of the batch. A request that had its credential check from memory so learns, with no query of
 * its own, whether access changed anywhere between that check and the moment its row was durable.
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

    private final AuditStore store;
    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    /** Apart from {@link #queue} so that adding one wakes nobody (see the class comment). */
    private final Queue<AuditRow.Completion> completions = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private final LongSupplier afterCommit;
    private final long holdNanos;
    private volatile boolean closed;

    private record Pending(AuditRow row, CompletableFuture<Long> durable) {}

    /** Asks for everything queued before it to be written now; done once it has been tried. */
    private record Flush(CompletableFuture<Void> done) {}

    /** @param afterCommit read once after every batch commits; its value completes each request's future */
    public AuditWriter(AuditStore store, LongSupplier afterCommit) {
        this(store, afterCommit, HOLD_COMPLETIONS);
    }

    /** @param holdCompletions how long completions alone wait for rows to share a commit with */
    AuditWriter(AuditStore store, LongSupplier afterCommit, Duration holdCompletions) {
        this.store = requireNonNull(store, "store is null");
        this.afterCommit = requireNonNull(afterCommit, "afterCommit is null");
        this.holdNanos = requireNonNull(holdCompletions, "holdCompletions is null").toNanos();
        this.thread = Thread.ofPlatform().daemon().name("klave-audit-writer").start(this::run);
    }

    /**
     * Queues the row; the future completes once it is committed, with the value {@code afterCommit}
     * gave after that commit, or fails if the row cannot be written.
     */
    public CompletableFuture<Long> record(AuditRow row) {
        CompletableFuture<Long> durable = new CompletableFuture<>();
        if (closed) {
            durable.completeExceptionally(new IllegalStateException("audit writer closed"));
            return durable;
        }
        queue.add(new Pending(row, durable));
        return durable;
    }

    /**
     * Queues the completion of a row; written with the next rows, or within
     * {@link #HOLD_COMPLETIONS} when none come, or at the next {@link #flush()}; nobody waits for
     * it, and the writer is not woken for it.
     */
    public void complete(AuditRow.Completion completion) {
        completions.add(completion);
    }

    /**
     * Writes at once everything queued before this call, held completions included. The future
     * completes once that write has been tried (failures are logged by the writer, as always);
     * after {@link #close()} there is nothing left to write and it is complete at once.
     */
    public CompletableFuture<Void> flush() {
        Flush flush = new Flush(new CompletableFuture<>());
        if (closed) {
            flush.done().complete(null);
        } else {
            queue.add(flush);
            if (!thread.isAlive()) {
                flush.done().complete(null); // closed meanwhile: the writer is gone
            }
        }
        return flush.done();
    }

    private void run() {
        while (!closed || !queue.isEmpty() || !completions.isEmpty()) {
            try {
                Object first = queue.poll(holdNanos, TimeUnit.NANOSECONDS);
                List<Object> batch = new ArrayList<>();
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, MAX_BATCH - 1);
                } else if (completions.isEmpty()) {
                    continue;
                }
                // At most MAX_BATCH of each kind per transaction; the rest go with the next one.
                AuditRow.Completion completion;
                for (int taken = 0; taken < MAX_BATCH && (completion = completions.poll()) != null; taken++) {
                    batch.add(completion);
                }
                write(batch);
            } catch (InterruptedException e) {
                if (closed) {
                    List<Object> rest = new ArrayList<>();
                    queue.drainTo(rest);
                    rest.addAll(completions);
                    write(rest);
                    return;
                }
            }
        }
    }

    private void write(List<Object> batch) {
        try {
            store(batch);
        } finally {
            for (Object item : batch) {
                if (item instanceof Flush flush) {
                    flush.done().complete(null);
                }
            }
        }
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
        try {
            long value = store.write(rows.stream().map(Pending::row).toList(), completions,
                    rows.isEmpty() ? () -> 0 : this::readAtCommit);
            settle(rows, value);
            return;
        } catch (RuntimeException e) {
            LOG.warn("audit batch failed ({}); writing its rows and completions apart", e.getMessage());
        }
        // Apart, so that only rows that cannot be written refuse their requests, as before.
        try {
            if (!rows.isEmpty()) {
                store.insertAll(rows.stream().map(Pending::row).toList());
                settle(rows, readAtCommit());
            }
        } catch (RuntimeException e) {
            LOG.error("audit rows not written ({} requests refused): {}", rows.size(), e.getMessage());
            rows.forEach(pending -> pending.durable().completeExceptionally(e));
        }
        try {
            if (!completions.isEmpty()) {
                store.completeAll(completions);
            }
        } catch (RuntimeException e) {
            LOG.error("{} audit completions not written: {}", completions.size(), e.getMessage());
        }
    }

    /**
     * The {@code afterCommit} value for a batch. When it cannot be read the rows are still
     * written, but nobody can tell whether access changed: fail closed, each request checks its
     * credential in full (and meets the database's error there).
     */
    private long readAtCommit() {
        try {
            return afterCommit.getAsLong();
        } catch (RuntimeException e) {
            LOG.warn("reading after the audit commit failed: {}", e.getMessage());
            return Long.MIN_VALUE;
        }
    }

    /** Completes the requests of a committed batch with the value read at its commit. */
    private static void settle(List<Pending> rows, long value) {
        for (Pending pending : rows) {
            pending.durable().complete(value);
        }
    }

    /** Writes what is queued, then stops (SIGTERM: the audit is flushed before exiting). */
    @Override
    public void close() {
        closed = true;
        // Wakes the writer if it is waiting with held completions.
        queue.add(new Flush(new CompletableFuture<>()));
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
