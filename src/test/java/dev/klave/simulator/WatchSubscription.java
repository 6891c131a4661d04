package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One watcher's queue of events. It is bounded: a watcher that cannot keep up is ended (like the
 * apiserver's watch cache drops a slow watcher) instead of letting memory grow; the client then
 * lists again and resumes.
 */
final class WatchSubscription implements AutoCloseable {
    private final ObjectStore store;
    private final ResourceType type;
    private final Optional<String> namespace;
    private final Predicate<ObjectNode> filter;
    private final BlockingQueue<ObjectStore.StoredEvent> queue;
    private volatile boolean ended;

    WatchSubscription(ObjectStore store, ResourceType type, Optional<String> namespace,
            Predicate<ObjectNode> filter, int capacity) {
        this.store = requireNonNull(store, "store is null");
        this.type = requireNonNull(type, "type is null");
        this.namespace = requireNonNull(namespace, "namespace is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    /** Called under the store lock; never blocks the writer. */
    void offer(ObjectStore.StoredEvent event) {
        if (ended || !event.resource().equals(type)) {
            return;
        }
        if (namespace.isPresent() && !namespace.get().equals(Json.string(event.object(), "metadata", "namespace").orElse(""))) {
            return;
        }
        if (!filter.test(event.object())) {
            return;
        }
        if (!queue.offer(event)) {
            close();
        }
    }

    /** The next event, or empty after the timeout or once the watch has ended and drained. */
    Optional<ObjectStore.StoredEvent> next(Duration timeout) throws InterruptedException {
        ObjectStore.StoredEvent event = queue.poll(ended ? 0 : timeout.toMillis(), TimeUnit.MILLISECONDS);
        return Optional.ofNullable(event);
    }

    boolean ended() {
        return ended && queue.isEmpty();
    }

    @Override
    public void close() {
        ended = true;
        store.unsubscribe(this);
    }
}
