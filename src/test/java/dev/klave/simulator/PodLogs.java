package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Container logs, one buffer per running container instance: a few lines at start (the pod's
 * {@code simulator.klave.dev/log} annotation, or a start-up line), then whatever a test appends.
 * Every line carries the time it was written (the simulator's clock), as the container runtime's
 * log files do, so {@code sinceSeconds}, {@code sinceTime} and {@code timestamps} can be answered.
 * A restart ends the instance's buffer and keeps its lines as the "previous" log
 * ({@code previous=true}); kubelet keeps only the one before the current. Followers wait on a
 * condition, not a busy loop.
 */
final class PodLogs {
    static final String LOG_ANNOTATION = "simulator.klave.dev/log";
    /** Lines of a previous container instance, for a pod seeded as if its containers had restarted. */
    static final String PREVIOUS_LOG_ANNOTATION = "simulator.klave.dev/previous-log";

    private final Clock clock;
    private final Map<String, Buffer> buffers = new ConcurrentHashMap<>();
    private final Map<String, List<Line>> previous = new ConcurrentHashMap<>();

    /** One line of a log and when the container wrote it. */
    record Line(Instant time, String text) {
        Line {
            requireNonNull(time, "time is null");
            requireNonNull(text, "text is null");
        }
    }

    /** One container instance's lines; {@code lines} only grows, until the instance ends. */
    static final class Buffer {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition grown = lock.newCondition();
        private final List<Line> lines = new ArrayList<>();
        private boolean ended;

        void append(Line line) {
            lock.lock();
            try {
                lines.add(line);
                grown.signalAll();
            } finally {
                lock.unlock();
            }
        }

        List<Line> from(int index) {
            lock.lock();
            try {
                return List.copyOf(lines.subList(Math.min(index, lines.size()), lines.size()));
            } finally {
                lock.unlock();
            }
        }

        /** The container instance exited: followers get what is left and their stream ends. */
        boolean ended() {
            lock.lock();
            try {
                return ended;
            } finally {
                lock.unlock();
            }
        }

        /** Waits until there are more than {@code known} lines, the instance ends or the timeout passes. */
        void awaitMore(int known, Duration timeout) throws InterruptedException {
            lock.lock();
            try {
                if (lines.size() <= known && !ended) {
                    grown.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
                }
            } finally {
                lock.unlock();
            }
        }

        void end() {
            lock.lock();
            try {
                ended = true;
                grown.signalAll();
            } finally {
                lock.unlock();
            }
        }

        void wake() {
            lock.lock();
            try {
                grown.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    PodLogs(Clock clock) {
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The running instance's buffer, started with {@code initialLines} written at {@code startedAt}. */
    Buffer buffer(String namespace, String pod, String container, List<String> initialLines, Instant startedAt) {
        return buffers.computeIfAbsent(key(namespace, pod, container), key -> started(initialLines, startedAt));
    }

    void append(String namespace, String pod, String container, String line) {
        buffer(namespace, pod, container, List.of(), clock.instant()).append(new Line(clock.instant(), line));
    }

    /** The log of the instance before the current one, if the container has restarted. */
    Optional<List<Line>> previous(String namespace, String pod, String container) {
        return Optional.ofNullable(previous.get(key(namespace, pod, container)));
    }

    /**
     * Ends the running instance (whose lines, or {@code initialLines} if nobody read or wrote its
     * log yet, become the previous log) and starts a new one with {@code initialLines}.
     */
    void restart(String namespace, String pod, String container, List<String> initialLines, Instant startedAt) {
        String key = key(namespace, pod, container);
        Buffer ended = buffers.remove(key);
        List<Line> lines = ended == null ? started(initialLines, startedAt).from(0) : ended.from(0);
        previous.put(key, lines);
        buffers.put(key, started(initialLines, clock.instant()));
        if (ended != null) {
            ended.end();
        }
    }

    Instant now() {
        return clock.instant();
    }

    void wakeAll() {
        buffers.values().forEach(Buffer::wake);
    }

    private static Buffer started(List<String> initialLines, Instant startedAt) {
        Buffer buffer = new Buffer();
        initialLines.forEach(line -> buffer.append(new Line(startedAt, line)));
        return buffer;
    }

    private static String key(String namespace, String pod, String container) {
        return namespace + "/" + pod + "/" + container;
    }
}
