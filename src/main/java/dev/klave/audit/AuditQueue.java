package dev.klave.audit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What waits for {@link AuditWriter}'s threads: rows and flushes in arrival order, completions
 * apart. Every batch taken gets a ticket under the same lock as the taking, so that when several
 * threads write batches at once a flush can wait for exactly the batches taken before it.
 */
final class AuditQueue {
    private final int maxBatch;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final Condition written = lock.newCondition();
    /** Rows and flushes, in order; guarded by {@link #lock}. */
    private final ArrayDeque<Object> items = new ArrayDeque<>();
    /** Apart so that adding one wakes nobody (see {@link AuditWriter}'s class comment). */
    private final Queue<AuditRow.Completion> completions = new ConcurrentLinkedQueue<>();
    /** Tickets of the batches taken and not yet written; guarded by {@link #lock}. */
    private final TreeSet<Long> inFlight = new TreeSet<>();
    private long tickets;
    private boolean closed;

    /** A batch: at most {@code maxBatch} rows and flushes, and at most as many completions. */
    record Batch(long ticket, List<Object> items) {}

    AuditQueue(int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, got " + maxBatch);
        }
        this.maxBatch = maxBatch;
    }

    /** Queues a row or a flush and wakes a writer; false once closed (nobody would take it). */
    boolean add(Object item) {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            items.add(item);
            arrived.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** How many rows and flushes wait for a writer now. */
    int depth() {
        lock.lock();
        try {
            return items.size();
        } finally {
            lock.unlock();
        }
    }

    /** Queues a completion without waking anybody. */
    void complete(AuditRow.Completion completion) {
        completions.add(completion);
    }

    /**
     * Waits up to {@code holdNanos} for rows or flushes (not at all once closed), then takes what
     * is there, completions included. Empty when nothing at all was there; {@code null} once
     * closed and nothing is left, which ends the writer.
     */
    Batch take(long holdNanos) throws InterruptedException {
        lock.lock();
        try {
            long nanos = holdNanos;
            while (items.isEmpty() && !closed && nanos > 0) {
                nanos = arrived.awaitNanos(nanos);
            }
            if (closed && items.isEmpty() && completions.isEmpty()) {
                return null;
            }
            List<Object> batch = new ArrayList<>();
            for (Object item; batch.size() < maxBatch && (item = items.poll()) != null; ) {
                batch.add(item);
            }
            // Taken under the lock too: a completion queued before a flush is in that flush's
            // batch or in one with an earlier ticket, never in a later one.
            AuditRow.Completion completion;
            for (int taken = 0; taken < maxBatch && (completion = completions.poll()) != null; taken++) {
                batch.add(completion);
            }
            long ticket = ++tickets;
            if (!batch.isEmpty()) {
                inFlight.add(ticket);
            }
            return new Batch(ticket, batch);
        } finally {
            lock.unlock();
        }
    }

    /** The batch has been written (or its write has failed). */
    void written(Batch batch) {
        lock.lock();
        try {
            if (inFlight.remove(batch.ticket())) {
                written.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every batch taken before this one has been written. */
    void awaitEarlier(Batch batch) throws InterruptedException {
        lock.lock();
        try {
            while (!inFlight.isEmpty() && inFlight.first() < batch.ticket()) {
                written.await();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Refuses new rows and flushes, and lets idle writers see there is nothing more to wait for. */
    void close() {
        lock.lock();
        try {
            closed = true;
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whatever no writer took (writers that did not stop in time). */
    List<Object> leftOver() {
        lock.lock();
        try {
            List<Object> rest = new ArrayList<>(items);
            items.clear();
            return rest;
        } finally {
            lock.unlock();
        }
    }
}
