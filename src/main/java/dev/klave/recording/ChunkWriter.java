package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recordings' chunks on their way to the store: handed over by the recorder threads, stored on the
 * writer's thread, every chunk waiting (up to {@link #BATCH} of text) in one transaction with the
 * lines it completed. One transaction per 16 KiB chunk held a stream printing at network speed to
 * what SQLite could commit (bench/RESULTS.md). What waits is bounded ({@link #BACKLOG}).
 */
final class ChunkWriter {
    /** The most asciicast text waiting for the writer, every recording together. */
    static final long BACKLOG = 32L * 1024 * 1024;
    /** The most text one transaction stores. */
    static final long BATCH = 4L * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(ChunkWriter.class);

    /** A chunk waiting, and what to do if it cannot be stored. */
    private record Pending(RecordingStore.Chunk chunk, Runnable failed) {}

    private final RecordingStore store;
    private final Executor writer;
    private final AtomicLong backlog = new AtomicLong();
    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    /** Whether a drain is queued on the writer (a chunk added meanwhile is stored by it). */
    private final AtomicBoolean draining = new AtomicBoolean();

    ChunkWriter(RecordingStore store, Executor writer) {
        this.store = requireNonNull(store, "store is null");
        this.writer = requireNonNull(writer, "writer is null");
    }

    /** Whether what waits leaves room for a new session's recording. */
    boolean roomy() {
        return backlog.get() < BACKLOG / 2;
    }

    /**
     * A chunk for the writer; {@code failed} is run on the writer's thread if it cannot be stored.
     * @return false when too much waits already (the chunk is not taken)
     */
    boolean offer(String id, int seq, String lines, List<LineIndex.Line> printed, Runnable failed) {
        long size = lines.length();
        if (backlog.addAndGet(size) > BACKLOG) {
            backlog.addAndGet(-size);
            return false;
        }
        pending.add(new Pending(new RecordingStore.Chunk(id, seq, lines, size,
                printed.stream().map(LineIndex.Line::at).toList(), printed.stream().map(LineIndex.Line::text).toList()),
                failed));
        if (draining.compareAndSet(false, true)) {
            writer.execute(this::drain);
        }
        return true;
    }

    /** On the writer's thread: stores everything waiting, in batches; a recording's end calls it first. */
    void drain() {
        draining.set(false);
        while (!pending.isEmpty()) {
            List<Pending> batch = new ArrayList<>();
            long size = 0;
            for (Pending next = pending.poll(); next != null; next = size < BATCH ? pending.poll() : null) {
                batch.add(next);
                size += next.chunk().bytes();
            }
            try {
                store(batch);
            } finally {
                backlog.addAndGet(-size);
            }
        }
    }

    /**
     * One transaction for the batch; if it fails and carried several recordings, one per recording,
     * so that a recording whose row was never stored does not take the others down with it.
     */
    private void store(List<Pending> batch) {
        try {
            store.appendAll(batch.stream().map(Pending::chunk).toList());
            return;
        } catch (RuntimeException e) {
            if (batch.stream().map(one -> one.chunk().id()).distinct().count() == 1) {
                LOG.warn("recording {}: chunks could not be stored: {}", batch.get(0).chunk().id(), e.toString());
                batch.forEach(one -> one.failed().run());
                return;
            }
        }
        Map<String, List<Pending>> byRecording = new LinkedHashMap<>();
        batch.forEach(one -> byRecording.computeIfAbsent(one.chunk().id(), ignored -> new ArrayList<>()).add(one));
        byRecording.forEach((id, chunks) -> {
            try {
                store.appendAll(chunks.stream().map(Pending::chunk).toList());
            } catch (RuntimeException e) {
                LOG.warn("recording {}: chunks could not be stored: {}", id, e.toString());
                chunks.forEach(one -> one.failed().run());
            }
        });
    }
}
