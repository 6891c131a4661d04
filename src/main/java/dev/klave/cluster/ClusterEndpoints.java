package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one owner of every client Klave keeps for a cluster's API server — the reconciler's, the
 * proxy's pools, the upgrades', the tools' — each pinned to the cluster's registered CA. A client
 * is kept for the secrets it was built from, known by their content
 * ({@link BootstrapSecrets#fingerprint()}): the same secrets read again keep it, new secrets (new
 * tokens, another CA, another address) build a new one and let the old one go; a cluster deleted, here or on another replica, is forgotten with every
 * client of it. The transports say how to build and close theirs ({@link Kind}); this class keeps
 * the lifecycle in one place, without knowing what a client is.
 */
public final class ClusterEndpoints {
    /**
     * A kind of client: how to build one for a cluster's secrets and how to let it go. Compared by
     * identity: make each once.
     *
     * @param name for logs and tests
     */
    public record Kind<C>(String name, Function<BootstrapSecrets, C> build, Consumer<C> close) {
        public Kind {
            requireNonNull(name, "name is null");
            requireNonNull(build, "build is null");
            requireNonNull(close, "close is null");
        }

        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    /** A client's key: the cluster, its kind, and what else tells clients of one kind apart (a pool, a loop). */
    private record Key(ClusterId cluster, Kind<?> kind, Object variant) {}

    /** A client and the fingerprint of the secrets it was built from. */
    private record Built(BootstrapSecrets.Fingerprint fingerprint, Object client) {}

    private final Map<Key, Built> clients = new ConcurrentHashMap<>();

    /**
     * The client of {@code kind} for {@code cluster}, built from {@code secrets} (or kept, when it
     * was built from secrets with the same content).
     *
     * @param variant what tells clients of one kind and cluster apart ({@code ""} when nothing does)
     */
    public <C> C client(Kind<C> kind, ClusterId cluster, Object variant, BootstrapSecrets secrets) {
        Key key = new Key(cluster, kind, variant);
        BootstrapSecrets.Fingerprint fingerprint = secrets.fingerprint();
        Built kept = clients.get(key);
        if (kept != null && kept.fingerprint().equals(fingerprint)) {
            @SuppressWarnings("unchecked")
            C client = (C) kept.client();
            return client;
        }
        Built[] replaced = new Built[1];
        Built built = clients.compute(key, (ignored, current) -> {
            if (current != null && current.fingerprint().equals(fingerprint)) {
                return current;
            }
            replaced[0] = current;
            return new Built(fingerprint, kind.build().apply(secrets));
        });
        if (replaced[0] != null) {
            close(kind, replaced[0]);
        }
        @SuppressWarnings("unchecked")
        C client = (C) built.client();
        return client;
    }

    /** Lets every client of {@code cluster} go (it was deleted). */
    public void forget(ClusterId cluster) {
        clients.entrySet().removeIf(entry -> {
            if (!entry.getKey().cluster().equals(cluster)) {
                return false;
            }
            close(entry.getKey().kind(), entry.getValue());
            return true;
        });
    }

    /** Lets every client go of a cluster not in {@code registered} (deleted on another replica, say). */
    public void retainOnly(Set<ClusterId> registered) {
        clients.entrySet().removeIf(entry -> {
            if (registered.contains(entry.getKey().cluster())) {
                return false;
            }
            close(entry.getKey().kind(), entry.getValue());
            return true;
        });
    }

    /** How many clients are kept; for tests. */
    public int size() {
        return clients.size();
    }

    @SuppressWarnings("unchecked")
    private static <C> void close(Kind<C> kind, Built built) {
        kind.close().accept((C) built.client());
    }
}
