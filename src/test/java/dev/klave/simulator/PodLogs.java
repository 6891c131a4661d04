package dev.klave.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Container logs: a few lines at start (the pod's {@code simulator.klave.dev/log} annotation, or a
 * start-up line), then whatever a test appends. Followers wait on a condition, not a busy loop.
 */
final class PodLogs {
    static final String LOG_ANNOTATION = "simulator.klave.dev/log";

    private final Map<String, Buffer> buffers = new ConcurrentHashMap<>();

    /** One container's lines; {@code lines} only grows. */
    static final class Buffer {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition grown = lock.newCondition();
        private final List<String> lines = new ArrayList<>();

        void append(String line) {
            lock.lock();
            try {
                lines.add(line);
                grown.signalAll();
            } finally {
                lock.unlock();
            }
        }

        List<String> from(int index) {
            lock.lock();
            try {
                return List.copyOf(lines.subList(Math.min(index, lines.size()), lines.size()));
            } finally {
                lock.unlock();
            }
        }

        int size() {
            lock.lock();
            try {
                return lines.size();
            } finally {
                lock.unlock();
            }
        }

        /** Waits until there are more than {@code known} lines or the timeout passes. */
        void awaitMore(int known, Duration timeout) throws InterruptedException {
            lock.lock();
            try {
                if (lines.size() <= known) {
                    grown.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
                }
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

    Buffer buffer(String namespace, String pod, String container, List<String> initialLines) {
        return buffers.computeIfAbsent(namespace + "/" + pod + "/" + container, key -> {
            Buffer buffer = new Buffer();
            initialLines.forEach(buffer::append);
            return buffer;
        });
    }

    void append(String namespace, String pod, String container, String line) {
        buffer(namespace, pod, container, List.of()).append(line);
    }

    void wakeAll() {
        buffers.values().forEach(Buffer::wake);
    }
}
