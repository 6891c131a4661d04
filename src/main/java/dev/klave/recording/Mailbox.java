package dev.klave.recording;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A session's relayed bytes on their way from the relay's thread to its {@link Recorder}, which reads
 * them on a recorder thread: the relay copies what it forwarded and goes on (issue 42: parsing never
 * delays the bytes relayed). Read on the relay's own thread, a stream printing at network speed went
 * at the recorder's pace, 58 % of nginx's (bench/RESULTS.md). Pieces are read in order, one thread at
 * a time. What waits is bounded per session and for all of them: past either bound the recording
 * stops, marked behind, and the pieces after it are dropped — memory, never the session, pays.
 */
final class Mailbox {
    /** What one session may have waiting for its recorder. */
    static final long SESSION_LIMIT = 32L * 1024 * 1024;

    private final Recorder recorder;
    private final Executor executor;
    private final AtomicLong shared;
    private final long sharedLimit;
    private final ConcurrentLinkedQueue<Piece> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong queued = new AtomicLong();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile boolean behind;

    /** What the relay told: bytes of one direction, that it fell behind, that it stopped at the cap, the end. */
    private enum Told { BYTES, BEHIND, CAPPED, END }

    private record Piece(Told told, boolean fromClient, byte[] bytes, CompletableFuture<Optional<String>> end,
            Optional<String> cut) {}

    /**
     * @param shared what waits in every session's mailbox together, bounded by {@code sharedLimit}
     */
    Mailbox(Recorder recorder, Executor executor, AtomicLong shared, long sharedLimit) {
        this.recorder = recorder;
        this.executor = executor;
        this.shared = shared;
        this.sharedLimit = sharedLimit;
    }

    /** Whether the relay should still copy what it forwards for the recorder. */
    boolean wanted() {
        return !behind && recorder.recording();
    }

    /** On the relay's thread: bytes it forwarded, copied, for the recorder. */
    void post(boolean fromClient, byte[] bytes) {
        if (behind) {
            return;
        }
        long size = bytes.length;
        boolean over = queued.addAndGet(size) > SESSION_LIMIT;
        over |= shared.addAndGet(size) > sharedLimit;
        if (over) {
            queued.addAndGet(-size);
            shared.addAndGet(-size);
            behind = true;
            // The recorder is told on its own thread, in order: the relay never waits for its lock.
            enqueue(new Piece(Told.BEHIND, false, null, null, Optional.empty()));
            return;
        }
        enqueue(new Piece(Told.BYTES, fromClient, bytes, null, Optional.empty()));
    }

    /** On the relay's thread: it stopped relaying at the session's cap; the recorder learns it in order. */
    void capped() {
        enqueue(new Piece(Told.CAPPED, false, null, null, Optional.empty()));
    }

    /** The session ended: its recording ends once what waits is read; why it is not whole, if it is not. */
    CompletionStage<Optional<String>> end(Optional<String> cut) {
        CompletableFuture<Optional<String>> ended = new CompletableFuture<>();
        enqueue(new Piece(Told.END, false, null, ended, cut));
        return ended;
    }

    private void enqueue(Piece piece) {
        queue.add(piece);
        if (scheduled.compareAndSet(false, true)) {
            executor.execute(this::run);
        }
    }

    private void run() {
        scheduled.set(false);
        settle();
    }

    /** Reads everything waiting, on the calling thread (a recorder thread; tests; a stop). */
    synchronized void settle() {
        for (Piece piece = queue.poll(); piece != null; piece = queue.poll()) {
            if (piece.told() == Told.END) {
                piece.end().complete(recorder.end(piece.cut()));
            } else if (piece.told() == Told.BEHIND) {
                recorder.behind();
            } else if (piece.told() == Told.CAPPED) {
                recorder.capped();
            } else {
                try {
                    if (piece.fromClient()) {
                        recorder.fromClient(piece.bytes());
                    } else {
                        recorder.fromCluster(piece.bytes());
                    }
                } catch (RuntimeException e) {
                    recorder.unreadable();
                } finally {
                    queued.addAndGet(-piece.bytes().length);
                    shared.addAndGet(-piece.bytes().length);
                }
            }
        }
    }
}
