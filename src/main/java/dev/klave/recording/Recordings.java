package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.audit.ControlEvents;
import dev.klave.cluster.ClusterId;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recorded exec and attach sessions (issue 42): {@link #start} gives the relay a {@link Tap} for a
 * session; what it relays is read on recorder threads ({@link Mailbox}) and its lines reach the
 * database through one writer thread ({@link ChunkWriter}), in chunks, every second at the latest —
 * never on the relay's thread. Memory is bounded: what waits for the recorders and for the writer
 * (beyond, the recording is marked incomplete; the session goes on). Reading a recording is itself
 * a control event.
 */
public final class Recordings implements AutoCloseable {
    /** The most a required session's recording takes for each byte relayed: all of them control characters. */
    static final long ESCAPED = 8;
    /** Default per-session cap: then the recording is marked truncated. */
    public static final long CAP = 64L * 1024 * 1024;
    static final Duration FLUSH = Duration.ofSeconds(1);
    /** The most relayed bytes waiting for the recorders, every session together. */
    static final long MAILED = 64L * 1024 * 1024;
    /** How often the total is read again and old recordings deleted. */
    static final Duration UPKEEP = Duration.ofSeconds(30);
    private static final int PRUNED_PER_BATCH = 500;
    private static final Logger LOG = LoggerFactory.getLogger(Recordings.class);

    private final RecordingStore store;
    private final RecordingQuota quota;
    private final SpdyReader.Factory spdy;
    private final Optional<java.time.Duration> retention;
    private final RecordingPolicies policies;
    private final Clock clock;
    private final long cap;
    /** Sessions being recorded, with their mailboxes. */
    private final Map<Recorder, Mailbox> live = new ConcurrentHashMap<>();
    /** What waits in every mailbox together. */
    private final AtomicLong mailed = new AtomicLong();
    /** Where the recorders read what their sessions relayed: never the relay's threads. */
    private final ExecutorService recorders = Executors.newFixedThreadPool(
            Math.max(1, Runtime.getRuntime().availableProcessors() / 2),
            Thread.ofPlatform().daemon().name("klave-recorder-", 0).factory());
    private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("klave-recording-writer").factory());
    private final ChunkWriter chunks;
    private final RecordingLibrary library;
    private boolean writing;

    public Recordings(RecordingStore store, RecordingPolicies policies, ControlEvents events,
            dev.klave.storage.Transactions transactions, Clock clock, long cap) {
        this(store, policies, events, transactions, clock, cap, Long.MAX_VALUE, Long.MAX_VALUE, Optional.empty(),
                SpdyReader.NONE);
    }

    /**
     * @param quota what all recordings may take together: beyond it, new sessions are not recorded
     *     (on: marked; required: refused)
     * @param share what one person's recordings may take together, the same way
     * @param retention how long recordings are kept (empty: as long as their cluster)
     * @param spdy how the transport reads SPDY/3.1 sessions for the recorder
     */
    public Recordings(RecordingStore store, RecordingPolicies policies, ControlEvents events,
            dev.klave.storage.Transactions transactions, Clock clock, long cap, long quota, long share,
            Optional<java.time.Duration> retention, SpdyReader.Factory spdy) {
        this.spdy = requireNonNull(spdy, "spdy is null");
        this.retention = requireNonNull(retention, "retention is null");
        this.quota = new RecordingQuota(quota, share, retention, clock);
        this.policies = requireNonNull(policies, "policies is null");
        this.store = requireNonNull(store, "store is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.cap = cap;
        this.chunks = new ChunkWriter(store, writer);
        this.library = new RecordingLibrary(store, events, transactions, this.quota);
    }

    /**
     * Starts the writer's beats: what the sessions hold flushed every {@link #FLUSH}, the upkeep
     * every {@link #UPKEEP}, the first at once. Nothing runs before (a constructor starts no
     * thread); once is enough.
     */
    public synchronized void startWriting() {
        if (writing) {
            return;
        }
        writing = true;
        writer.scheduleWithFixedDelay(() -> live.keySet().forEach(Recorder::flush), FLUSH.toMillis(), FLUSH.toMillis(),
                TimeUnit.MILLISECONDS);
        writer.scheduleWithFixedDelay(this::upkeep, 0, UPKEEP.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * What the relay knows of a session once the cluster answered its upgrade: who opened it, what
     * it is ({@link SessionRequest.Recorded}), and the protocol the cluster chose.
     */
    public record Session(String auditId, SubjectId subject, String login, ClusterId cluster,
            SessionRequest.Recorded request) {
        public Session {
            requireNonNull(auditId, "auditId is null");
            requireNonNull(subject, "subject is null");
            requireNonNull(login, "login is null");
            requireNonNull(cluster, "cluster is null");
            requireNonNull(request, "request is null");
        }
    }

    /** How a session opening now on {@code cluster} is recorded. */
    public ClusterRecording policy(ClusterId cluster) {
        return policies.of(cluster);
    }

    /**
     * Why a session of {@code subject} cannot be recorded now (the quota or the person's share
     * reached, with when to try again; too much waiting for the writer): empty when it can.
     */
    public Optional<dev.klave.messages.Refusal> refusing(SubjectId subject) {
        if (!chunks.roomy()) {
            return Optional.of(Message.RECORDING_REQUIRED_UNAVAILABLE.refusal().retryingAfter(FLUSH));
        }
        return quota.full(subject);
    }

    /**
     * On the writer's thread: the total read again, and recordings past their retention deleted, in
     * batches (every replica does it; deleting twice is harmless).
     */
    void upkeep() {
        try {
            retention.ifPresent(keep -> {
                java.time.Instant before = clock.instant().minus(keep);
                int deleted;
                int all = 0;
                do {
                    deleted = store.deleteStartedBefore(before, PRUNED_PER_BATCH);
                    all += deleted;
                } while (deleted == PRUNED_PER_BATCH);
                if (all > 0) {
                    LOG.info("recordings: {} older than {} deleted", all, keep);
                }
            });
            quota.read(store.usage());
        } catch (RuntimeException e) {
            LOG.warn("recordings: upkeep failed, tried again in {}: {}", UPKEEP, e.toString());
        }
    }

    /** As {@link #start(Session, StreamProtocol, ClusterRecording, Runnable)} over WebSocket where recording is on. */
    public Tap start(Session session) {
        return start(session, StreamProtocol.WEBSOCKET, ClusterRecording.DEFAULT, () -> { });
    }

    /**
     * Starts a session's recording in the protocol its cluster chose; its row is written before the
     * first chunk. Under {@link RecordingPolicy#REQUIRED}, {@code failed} is told (once, on the
     * writer's thread) when the recording can no longer go on — its row or a chunk not stored, a
     * frame not read, the cap, the quota — and the relay ends the session; under
     * {@link RecordingPolicy#ON} the recording is marked and the session goes on.
     */
    public Tap start(Session session, StreamProtocol protocol, ClusterRecording settings, Runnable failed) {
        RecordingPolicy policy = settings.policy();
        if (policy == RecordingPolicy.OFF) {
            return Tap.NOTHING;
        }
        AtomicBoolean told = new AtomicBoolean();
        Runnable fail = () -> {
            if (policy == RecordingPolicy.REQUIRED && told.compareAndSet(false, true)) {
                failed.run();
            }
        };
        Recording recording = row(session, settings.stdin());
        Optional<dev.klave.messages.Refusal> full = quota.full(session.subject());
        if (full.isPresent()) {
            // The quota or the person's share is reached: the session goes on (on) unrecorded, its row saying why.
            String why = full.get().kind() == Message.RECORDING_REQUIRED_SHARE ? Text.RECORDING_SHARE.text()
                    : Text.RECORDING_QUOTA.text();
            fail.run();
            return unrecorded(recording, why);
        }
        Recorder[] self = new Recorder[1];
        // Under required the cap counts what reaches the client, at the relay (issue 51 §14), where a
        // session is cut at a whole message and told why; the recording, JSON-escaped, may take more
        // (a terminal's control character takes six bytes), up to this bound.
        long recorded = policy == RecordingPolicy.REQUIRED ? cap * ESCAPED : cap;
        Recorder recorder = new Recorder(recording.id(), protocol, spdy, settings.stdin(), recorded, System::nanoTime,
                new Recorder.Writer() {
            @Override
            public Optional<String> chunk(String id, int seq, String lines, List<LineIndex.Line> printed) {
                Optional<String> over = quota.take(session.subject(), lines.length());
                if (over.isPresent()) {
                    return over;
                }
                boolean taken = chunks.offer(id, seq, lines, printed, () -> {
                    self[0].failed(Text.RECORDING_STORE_FAILED.text());
                    fail.run();
                });
                if (!taken) {
                    quota.free(session.subject(), lines.length());
                }
                return taken ? Optional.empty() : Optional.of(Text.RECORDING_BEHIND.text());
            }

            @Override
            public void stopped(String id, Recording.State state) {
                writer.execute(fail);
            }

            @Override
            public void end(String id, Recording.State state, Optional<String> reason, Optional<Integer> exitCode,
                    Terminal.Size size, List<LineIndex.Line> printed) {
                writer.execute(() -> {
                    try {
                        chunks.drain();
                        index(id, printed);
                        store.end(id, clock.instant(), state, reason, exitCode, size);
                    } catch (RuntimeException e) {
                        LOG.warn("recording {}: its end could not be stored: {}", id, e.toString());
                    }
                });
            }
        });
        self[0] = recorder;
        // On the writer's thread, as every write: never on the relay's, and before the first chunk.
        writer.execute(() -> {
            try {
                store.create(recording);
            } catch (RuntimeException e) {
                LOG.warn("recording {}: its row could not be stored: {}", recording.id(), e.toString());
                recorder.failed(Text.RECORDING_STORE_FAILED.text());
                fail.run();
            }
        });
        Mailbox mailbox = new Mailbox(recorder, recorders, mailed, MAILED);
        live.put(recorder, mailbox);
        boolean required = policy == RecordingPolicy.REQUIRED;
        return new RecordedTap(mailbox, required ? cap : Long.MAX_VALUE,
                required && protocol != StreamProtocol.SPDY ? new FrameEnds() : null, () -> live.remove(recorder));
    }

    /**
     * A session the recorder cannot read, on a cluster whose policy is {@code on} (issue 51): it goes
     * on, and its recording says it was not recorded, and why — never {@code complete}.
     */
    public Tap unrecorded(Session session, ClusterRecording settings, String why) {
        if (settings.policy() == RecordingPolicy.OFF) {
            return Tap.NOTHING;
        }
        return unrecorded(row(session, settings.stdin()), why);
    }

    private Recording row(Session session, Stdin stdin) {
        SessionRequest.Recorded request = session.request();
        return Recording.started(session.auditId(), new Recording.Owner(session.subject(), session.login()),
                new Recording.Target(session.cluster(), request.namespace(), request.pod(), request.container(),
                        request.command()), Terminal.opening(request.tty()), stdin, clock.instant());
    }

    /** A row that says at once why nothing of the session is recorded; the tap takes nothing. */
    private Tap unrecorded(Recording recording, String why) {
        writer.execute(() -> {
            try {
                store.create(recording);
                store.end(recording.id(), clock.instant(), Recording.State.INCOMPLETE, Optional.of(why),
                        Optional.empty(), recording.terminal().size());
            } catch (RuntimeException e) {
                LOG.warn("recording {}: its row could not be stored: {}", recording.id(), e.toString());
            }
        });
        return Tap.unrecorded(why);
    }

    /** On the writer's thread: the lines a chunk completed, stored for search. */
    private void index(String id, List<LineIndex.Line> found) {
        if (!found.isEmpty()) {
            store.index(id, found.stream().map(LineIndex.Line::at).toList(),
                    found.stream().map(LineIndex.Line::text).toList());
        }
    }

    /** The recordings as people read them, and an administrator deletes them. */
    public RecordingLibrary library() {
        return library;
    }

    /** Waits (bounded) for what was handed to the writer: tests, and a clean stop. */
    void drain(Duration atMost) throws InterruptedException {
        live.values().forEach(Mailbox::settle);
        live.keySet().forEach(Recorder::flush);
        var done = writer.submit(() -> { });
        try {
            done.get(atMost.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.warn("recordings: the writer did not catch up within {}", atMost);
        }
    }

    /** Flushes what is held (for tests that read a recording at once). */
    public void flushNow() throws InterruptedException {
        drain(Duration.ofSeconds(5));
    }

    @Override
    public void close() {
        live.forEach((recorder, mailbox) -> {
            mailbox.settle();
            recorder.end(Optional.empty());
        });
        live.clear();
        recorders.shutdown();
        writer.shutdown();
        try {
            writer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
