package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Every stored object, as a JSON tree, under one lock: writes are linearised and each takes the
 * next value of one global resourceVersion counter, like etcd's revision. A bounded history of
 * events lets a watch resume from a resourceVersion; older ones answer 410 Gone, as etcd does
 * after compaction. Callers always get copies.
 */
final class ObjectStore {
    static final int HISTORY_LIMIT = 10_000;

    private final ReentrantLock lock = new ReentrantLock();
    private final TreeMap<Key, ObjectNode> objects = new TreeMap<>();
    private final ArrayDeque<StoredEvent> history = new ArrayDeque<>();
    private final Set<WatchSubscription> subscriptions = ConcurrentHashMap.newKeySet();
    private final Clock clock;
    private long revision = 100;

    /** Objects sort like etcd keys: by resource, then namespace, then name. */
    record Key(String resource, String namespace, String name) implements Comparable<Key> {
        @Override
        public int compareTo(Key other) {
            int byResource = resource.compareTo(other.resource);
            if (byResource != 0) {
                return byResource;
            }
            int byNamespace = namespace.compareTo(other.namespace);
            return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
        }
    }

    record StoredEvent(long revision, String type, ResourceType resource, ObjectNode object) {
    }

    record Snapshot(List<ObjectNode> items, long revision) {
    }

    /** The outcome of a write: the object as stored (or as it would be, for a dry run). */
    record Written(ObjectNode object, boolean created) {
    }

    ObjectStore(Clock clock) {
        this.clock = requireNonNull(clock, "clock is null");
    }

    Clock clock() {
        return clock;
    }

    long revision() {
        lock.lock();
        try {
            return revision;
        } finally {
            lock.unlock();
        }
    }

    Optional<ObjectNode> get(ResourceType type, String namespace, String name) {
        lock.lock();
        try {
            ObjectNode object = objects.get(key(type, namespace, name));
            return object == null ? Optional.empty() : Optional.of(object.deepCopy());
        } finally {
            lock.unlock();
        }
    }

    /** Objects of a type, in key order, in one namespace or (empty) in all. */
    Snapshot list(ResourceType type, Optional<String> namespace) {
        lock.lock();
        try {
            List<ObjectNode> items = new ArrayList<>();
            Key from = new Key(type.qualified(), namespace.orElse(""), "");
            for (Map.Entry<Key, ObjectNode> entry : objects.tailMap(from, true).entrySet()) {
                Key key = entry.getKey();
                if (!key.resource().equals(type.qualified()) || namespace.map(ns -> !ns.equals(key.namespace())).orElse(false)) {
                    break;
                }
                items.add(entry.getValue().deepCopy());
            }
            return new Snapshot(items, revision);
        } finally {
            lock.unlock();
        }
    }

    Written create(ResourceType type, ObjectNode object, boolean dryRun) {
        String namespace = Json.string(object, "metadata", "namespace").orElse("");
        String name = Json.string(object, "metadata", "name").orElse("");
        return write(type, namespace, name, current -> {
            if (current.isPresent()) {
                throw ApiException.alreadyExists(type.group(), type.plural(), name);
            }
            return object;
        }, dryRun);
    }

    /**
     * Reads, changes and stores one object atomically. The function sees a copy of the current
     * object (empty when there is none) and returns the new one, or throws.
     */
    Written write(ResourceType type, String namespace, String name,
            Function<Optional<ObjectNode>, ObjectNode> change, boolean dryRun) {
        lock.lock();
        try {
            if (type.namespaced() && !namespaceExists(namespace)) {
                throw ResourceCatalog.NAMESPACES.notFound(namespace);
            }
            Key key = key(type, namespace, name);
            ObjectNode stored = objects.get(key);
            Optional<ObjectNode> current = Optional.ofNullable(stored).map(ObjectNode::deepCopy);
            // The change gets its own copy: one that edits it in place must not edit what it is compared with.
            ObjectNode next = change.apply(current.map(ObjectNode::deepCopy)).deepCopy();
            ObjectNode finished = ObjectMetadata.finish(type, namespace, name, current, next, clock);
            if (stored != null && sameContent(stored, finished)) {
                return new Written(stored.deepCopy(), false);
            }
            if (dryRun) {
                Json.objectAt(finished, "metadata").put("resourceVersion", Long.toString(revision + 1));
                return new Written(finished, stored == null);
            }
            Json.objectAt(finished, "metadata").put("resourceVersion", Long.toString(++revision));
            objects.put(key, finished);
            publish(type, stored == null ? "ADDED" : "MODIFIED", finished);
            return new Written(finished.deepCopy(), stored == null);
        } finally {
            lock.unlock();
        }
    }

    ObjectNode delete(ResourceType type, String namespace, String name, boolean dryRun) {
        return delete(type, namespace, name, dryRun, stored -> { });
    }

    /** Deletes one object if {@code precondition} accepts (does not throw on) a copy of it. */
    ObjectNode delete(ResourceType type, String namespace, String name, boolean dryRun, Consumer<ObjectNode> precondition) {
        lock.lock();
        try {
            Key key = key(type, namespace, name);
            ObjectNode stored = objects.get(key);
            if (stored == null) {
                throw type.notFound(name);
            }
            precondition.accept(stored.deepCopy());
            if (dryRun) {
                return stored.deepCopy();
            }
            if (type.equals(ResourceCatalog.NAMESPACES)) {
                deleteNamespaceContents(name);
            }
            return remove(type, key);
        } finally {
            lock.unlock();
        }
    }

    List<ObjectNode> deleteAll(ResourceType type, Optional<String> namespace, Predicate<ObjectNode> filter, boolean dryRun) {
        lock.lock();
        try {
            List<ObjectNode> deleted = new ArrayList<>();
            for (ObjectNode object : list(type, namespace).items()) {
                if (!filter.test(object)) {
                    continue;
                }
                String name = Json.string(object, "metadata", "name").orElseThrow();
                String objectNamespace = Json.string(object, "metadata", "namespace").orElse("");
                deleted.add(delete(type, objectNamespace, name, dryRun));
            }
            return deleted;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Registers a watch. Without a resourceVersion the watch starts with one ADDED event per
     * current object (the apiserver's "start at most recent" semantics); with one it replays the
     * history after it.
     */
    WatchSubscription watch(ResourceType type, Optional<String> namespace, Optional<Long> fromRevision,
            Predicate<ObjectNode> filter, int capacity) {
        lock.lock();
        try {
            WatchSubscription subscription = new WatchSubscription(this, type, namespace, filter, capacity);
            if (fromRevision.isEmpty()) {
                for (ObjectNode object : list(type, namespace).items()) {
                    subscription.offer(new StoredEvent(revision, "ADDED", type, object));
                }
            } else {
                long from = fromRevision.get();
                long oldest = history.isEmpty() ? revision : history.peekFirst().revision() - 1;
                if (from < oldest) {
                    throw ApiException.gone("too old resource version: " + from + " (" + oldest + ")");
                }
                for (StoredEvent event : history) {
                    if (event.revision() > from) {
                        subscription.offer(event);
                    }
                }
            }
            subscriptions.add(subscription);
            return subscription;
        } finally {
            lock.unlock();
        }
    }

    void unsubscribe(WatchSubscription subscription) {
        subscriptions.remove(subscription);
    }

    int watchCount() {
        return subscriptions.size();
    }

    /** Ends every watch, as an apiserver that shuts down does. */
    void closeWatches() {
        for (WatchSubscription subscription : subscriptions) {
            subscription.close();
        }
    }

    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }

    private boolean namespaceExists(String namespace) {
        return objects.containsKey(new Key(ResourceCatalog.NAMESPACES.qualified(), "", namespace));
    }

    private void deleteNamespaceContents(String namespace) {
        for (ResourceType type : ResourceCatalog.ALL) {
            if (!type.namespaced() || type.review()) {
                continue;
            }
            for (ObjectNode object : list(type, Optional.of(namespace)).items()) {
                remove(type, key(type, namespace, Json.string(object, "metadata", "name").orElseThrow()));
            }
        }
    }

    private ObjectNode remove(ResourceType type, Key key) {
        ObjectNode removed = objects.remove(key);
        Json.objectAt(removed, "metadata").put("resourceVersion", Long.toString(++revision));
        publish(type, "DELETED", removed);
        return removed.deepCopy();
    }

    private void publish(ResourceType type, String eventType, ObjectNode object) {
        StoredEvent event = new StoredEvent(revision, eventType, type, object.deepCopy());
        history.addLast(event);
        while (history.size() > HISTORY_LIMIT) {
            history.removeFirst();
        }
        for (WatchSubscription subscription : subscriptions) {
            subscription.offer(event);
        }
    }

    private static boolean sameContent(ObjectNode stored, ObjectNode next) {
        ObjectNode left = stored.deepCopy();
        ObjectNode right = next.deepCopy();
        for (ObjectNode object : List.of(left, right)) {
            JsonNode metadata = object.get("metadata");
            if (metadata instanceof ObjectNode fields) {
                fields.remove("resourceVersion");
                // A write that changes nothing but the time of a managedFields entry is a no-op.
                fields.path("managedFields").forEach(entry -> ((ObjectNode) entry).remove("time"));
            }
        }
        return left.equals(right);
    }

    private static Key key(ResourceType type, String namespace, String name) {
        return new Key(type.qualified(), type.namespaced() ? namespace : "", name);
    }

    /** Used by tests that want a fresh identifier without a clock. */
    static String newUid() {
        return UUID.randomUUID().toString();
    }
}
