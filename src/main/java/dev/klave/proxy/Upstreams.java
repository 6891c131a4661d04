package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.cluster.BootstrapSecrets;
import dev.klave.cluster.ClusterEndpoints;
import dev.klave.cluster.ClusterId;
import dev.klave.gateway.Span;
import io.netty.channel.EventLoop;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.PemTrustOptions;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pooled HTTP clients per cluster and bootstrap, trusting only that cluster's registered CA and
 * checking the server's name, so a certificate from anyone else fails the handshake.
 *
 * <p>Two pools per cluster: ordinary requests share a bounded set of kept-alive connections, and
 * watches and followed logs, which hold a connection for as long as they are open, have a pool of
 * their own without a useful bound. With one shared pool of 64, the 65th open watch waited for a
 * connection forever and every ordinary request queued behind it (measured by bench/run).
 *
 * <p>And one pair of pools per event loop. A pooled connection stays on the event loop that opened
 * it; shared between the listeners' loops, a request read on one loop was written to the cluster
 * by the other and its answer handed back, waking a sleeping loop several times per request
 * (strace at 50 req/s: 7.6 event-loop wake-ups per request; bench/RESULTS.md).
 */
final class Upstreams {
    static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    static final int REQUEST_CONNECTIONS = 64;
    /** Streams are bounded by the clients and the process's open-file limit, not by this pool. */
    private static final int STREAM_CONNECTIONS = 1_000_000;

    private final Vertx vertx;
    private final ClusterEndpoints endpoints;
    /** The pools of ordinary requests and those of streams: two kinds of client of a cluster's. */
    private final ClusterEndpoints.Kind<Pool> requests;
    private final ClusterEndpoints.Kind<Pool> streams;

    /**
     * One pooled client, and how many requests are using or waiting for its connections. Vert.x
     * bounds the wait for a connection and the opening of a new one with one timer: when it runs
     * out, the count tells which it was — a pool whose connections were all taken (503, try again)
     * or a cluster slow to connect to (spec 1 §7's time-out).
     */
    static final class Pool {
        private final HttpClient client;
        private final AtomicInteger inFlight = new AtomicInteger();

        private Pool(HttpClient client) {
            this.client = client;
        }

        HttpClient client() {
            return client;
        }

        /**
         * Counts one more request; the {@link Runnable} counts it out. Run it once: the request's
         * {@link dev.klave.gateway.Ending} runs each place it holds once.
         */
        Runnable enter() {
            inFlight.incrementAndGet();
            return inFlight::decrementAndGet;
        }

        /** Whether {@code connections} requests besides the one asking were in flight: all taken. */
        boolean full(int connections) {
            return inFlight.get() > connections;
        }
    }

    Upstreams(Vertx vertx, ClusterEndpoints endpoints) {
        this.vertx = requireNonNull(vertx, "vertx is null");
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.requests = new ClusterEndpoints.Kind<>("proxy requests", secrets -> pool(secrets, REQUEST_CONNECTIONS),
                pool -> pool.client().close());
        this.streams = new ClusterEndpoints.Kind<>("proxy streams", secrets -> pool(secrets, STREAM_CONNECTIONS),
                pool -> pool.client().close());
    }

    /**
     * Called on the event loop of the request being forwarded.
     *
     * @param span a long-lived call holds its connection, so it takes one of the streams' pool
     */
    Pool client(ClusterId cluster, BootstrapSecrets secrets, Span span) {
        // Kept per event loop: a pooled connection stays on the loop that opened it.
        EventLoop loop = ((ContextInternal) vertx.getOrCreateContext()).nettyEventLoop();
        return endpoints.client(span == Span.LONG_LIVED ? streams : requests, cluster, loop, secrets);
    }

    private Pool pool(BootstrapSecrets secrets, int connections) {
        return new Pool(vertx.createHttpClient(new HttpClientOptions()
                .setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(secrets.caPem())))
                .setVerifyHost(true)
                .setConnectTimeout(CONNECT_TIMEOUT_MILLIS)
                .setKeepAlive(true), new PoolOptions().setHttp1MaxSize(connections)));
    }
}
