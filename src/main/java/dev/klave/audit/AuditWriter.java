package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
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
 */
public final class AuditWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AuditWriter.class);
    private static final int MAX_BATCH = 512;

    private final AuditStore store;
    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final LongSupplier afterCommit;
    private volatile boolean closed;

    private record Pending(AuditRow row, CompletableFuture<Long> durable) {}

    /** @param afterCommit read once after every batch commits; its value completes each request's future */
    public AuditWriter(AuditStore store, LongSupplier afterCommit) {
        this.store = requireNonNull(store, "store is null");
        this.afterCommit = requireNonNull(afterCommit, "afterCommit is null");
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

    /** Queues the completion of a row; written with the next batch, nobody waits for it. */
    public void complete(AuditRow.Completion completion) {
        queue.add(completion);
    }

    private void run() {
        while (!closed || !queue.isEmpty()) {
            try {
                Object first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                List<Object> batch = new ArrayList<>();
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                write(batch);
            } catch (InterruptedException e) {
                if (closed) {
                    List<Object> rest = new ArrayList<>();
                    queue.drainTo(rest);
                    write(rest);
                    return;
                }
            }
        }
    }

    private void write(List<Object> batch) {
        List<Pending> rows = new ArrayList<>();
        List<AuditRow.Completion> completions = new ArrayList<>();
        for (Object item : batch) {
            if (item instanceof Pending pending) {
                rows.add(pending);
            } else if (item instanceof AuditRow.Completion completion) {
                completions.add(completion);
            }
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
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
