package dev.klave.agent.approval;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads waiting on each request, parked until a decision on it is heard, their time runs
 * out or Klave stops. A thread registers before it reads the request, so a decision heard between
 * the read and the park still wakes it (the park returns at once on a pending unpark).
 */
final class Waiters {
    /** Each set is only read or changed inside the map's atomic compute for its key. */
    private final Map<String, Set<Thread>> byRequest = new ConcurrentHashMap<>();
    private volatile boolean closed;

    void add(String id, Thread thread) {
        byRequest.compute(id, (key, threads) -> {
            Set<Thread> kept = threads == null ? new HashSet<>() : threads;
            kept.add(thread);
            return kept;
        });
    }

    void remove(String id, Thread thread) {
        byRequest.computeIfPresent(id, (key, threads) -> {
            threads.remove(thread);
            return threads.isEmpty() ? null : threads;
        });
    }

    /** Wakes every thread waiting on {@code id}. */
    void wake(String id) {
        byRequest.computeIfPresent(id, (key, threads) -> {
            threads.forEach(LockSupport::unpark);
            return threads;
        });
    }

    /** From now on no wait parks; every waiting thread wakes. */
    void close() {
        closed = true;
        byRequest.keySet().forEach(this::wake);
    }

    /** How many calls wait on {@code id} in this replica now. */
    int waiting(String id) {
        Set<Thread>[] seen = new Set[1];
        byRequest.computeIfPresent(id, (key, threads) -> {
            seen[0] = Set.copyOf(threads);
            return threads;
        });
        return seen[0] == null ? 0 : seen[0].size();
    }

    boolean closed() {
        return closed;
    }
}
