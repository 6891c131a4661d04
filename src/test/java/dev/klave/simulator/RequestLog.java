package dev.klave.simulator;

import java.util.ArrayDeque;
import java.util.List;

/** The most recent requests, bounded so a long test run does not grow without limit. */
final class RequestLog {
    private static final int LIMIT = 10_000;

    private final ArrayDeque<RecordedRequest> requests = new ArrayDeque<>();

    synchronized void add(RecordedRequest request) {
        requests.addLast(request);
        if (requests.size() > LIMIT) {
            requests.removeFirst();
        }
    }

    synchronized List<RecordedRequest> all() {
        return List.copyOf(requests);
    }

    synchronized void clear() {
        requests.clear();
    }
}
