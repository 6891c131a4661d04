package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.ClusterId;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Each credential's share of this replica's connections to a cluster. A credential may have
 * {@code requestsPerCredential} ordinary requests in flight to one cluster; the next ones wait
 * their turn, in order, for at most the queue time-out, then are refused. So one credential —
 * a runaway script, or an attacker whose requests hang — holds at most its share of the cluster's
 * pooled connections, and everybody else's requests keep finding one.
 *
 * <p>Streams (watches, followed logs, upgraded connections) hold a connection, and two open files,
 * for as long as they last: a credential may hold {@code streamsPerCredential} of them, on all
 * clusters together, and the next one is refused at once.
 */
final class CredentialShares {
    private final Vertx vertx;
    private final int requestsPerCredential;
    private final int streamsPerCredential;
    private final Duration queueTimeout;
    private final Map<Key, Share> shares = new ConcurrentHashMap<>();
    private final Map<String, Integer> streams = new ConcurrentHashMap<>();

    private record Key(String credentialId, ClusterId cluster) {}

    /** A request waiting for a place, with the context its answer goes back to. */
    private record Waiter(Promise<Runnable> place, Context context, long timer) {}

    /** One credential's requests on one cluster; guarded by the map's lock on its key. */
    private static final class Share {
        int inFlight;
        final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
    }

    CredentialShares(Vertx vertx, int requestsPerCredential, int streamsPerCredential, Duration queueTimeout) {
        this.vertx = requireNonNull(vertx, "vertx is null");
        this.queueTimeout = requireNonNull(queueTimeout, "queueTimeout is null");
        if (requestsPerCredential < 1 || streamsPerCredential < 1) {
            throw new IllegalArgumentException("shares must be positive");
        }
        this.requestsPerCredential = requestsPerCredential;
        this.streamsPerCredential = streamsPerCredential;
    }

    /**
     * A place for one request of {@code credentialId} on {@code cluster}: at once when the
     * credential has fewer in flight than its share, else when one of them ends; failed with the
     * refusal after the queue time-out. Called on the request's event loop; the place is handed
     * back there. The {@link Runnable} gives the place up, once.
     */
    Future<Runnable> request(String credentialId, ClusterId cluster) {
        Key key = new Key(credentialId, cluster);
        Context context = vertx.getOrCreateContext();
        Promise<Runnable> place = Promise.promise();
        boolean[] now = {false};
        shares.compute(key, (ignored, share) -> {
            Share current = share == null ? new Share() : share;
            if (current.inFlight < requestsPerCredential) {
                current.inFlight++;
                now[0] = true;
            } else {
                long timer = vertx.setTimer(queueTimeout.toMillis(), fired -> expire(key, place, cluster));
                current.waiting.add(new Waiter(place, context, timer));
            }
            return current;
        });
        if (now[0]) {
            place.complete(release(key));
        }
        return place.future();
    }

    /** A waiter whose time ran out leaves the queue and is refused, unless a place came first. */
    private void expire(Key key, Promise<Runnable> place, ClusterId cluster) {
        boolean[] removed = {false};
        shares.computeIfPresent(key, (ignored, share) -> {
            removed[0] = share.waiting.removeIf(waiter -> waiter.place() == place);
            return share.inFlight == 0 && share.waiting.isEmpty() ? null : share;
        });
        if (removed[0]) {
            // A turn frees as soon as one of the credential's requests ends: ask again in a second.
            place.tryFail(Message.PROXY_CREDENTIAL_BUSY.refusal(cluster.value()).retryingAfter(Duration.ofSeconds(1)));
        }
    }

    private Runnable release(Key key) {
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (!released.compareAndSet(false, true)) {
                return;
            }
            Waiter[] next = {null};
            shares.computeIfPresent(key, (ignored, share) -> {
                next[0] = share.waiting.poll();
                if (next[0] == null) {
                    share.inFlight--;
                }
                return share.inFlight == 0 && share.waiting.isEmpty() ? null : share;
            });
            // The place passes to the next in line without ever being free, so nobody jumps it.
            Waiter waiter = next[0];
            if (waiter != null) {
                vertx.cancelTimer(waiter.timer());
                waiter.context().runOnContext(ignored -> waiter.place().complete(release(key)));
            }
        };
    }

    /**
     * A place for one more stream of {@code credentialId}; the {@link Runnable} gives it up once.
     *
     * @throws Refusal {@code PROXY_TOO_MANY_STREAMS} when the credential holds its share already
     */
    Runnable stream(String credentialId) {
        boolean[] admitted = {false};
        streams.compute(credentialId, (ignored, open) -> {
            int count = open == null ? 0 : open;
            if (count >= streamsPerCredential) {
                return count;
            }
            admitted[0] = true;
            return count + 1;
        });
        if (!admitted[0]) {
            // A place frees as soon as one of the credential's streams ends, which no one can foretell.
            throw Message.PROXY_TOO_MANY_STREAMS.refusal(streamsPerCredential).retryingAfter(Duration.ofSeconds(1));
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                streams.computeIfPresent(credentialId, (ignored, open) -> open <= 1 ? null : open - 1);
            }
        };
    }

    /** Requests of {@code credentialId} in flight on {@code cluster} (for tests). */
    int inFlight(String credentialId, ClusterId cluster) {
        return Optional.ofNullable(shares.get(new Key(credentialId, cluster))).map(share -> share.inFlight).orElse(0);
    }
}
