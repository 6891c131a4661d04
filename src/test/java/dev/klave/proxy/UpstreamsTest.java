package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.gateway.Span;
import dev.klave.cluster.BootstrapSecrets;
import dev.klave.cluster.ClusterId;
import dev.klave.simulator.ClusterSimulator;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Connections to a cluster are pooled per event loop: a request read on one loop is written to
 * the cluster on the same loop, never handed to another (bench/RESULTS.md measured the hand-offs).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UpstreamsTest {
    private final ClusterId cluster = new ClusterId("prod");
    private ClusterSimulator simulator;
    private Vertx vertx;
    private BootstrapSecrets secrets;

    @BeforeAll
    void start() {
        simulator = ClusterSimulator.builder().start();
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        secrets = BootstrapSecrets.of(simulator.url(), simulator.caCertificatePem(), "proxy-token", "reconciler-token");
    }

    @AfterAll
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        simulator.close();
    }

    @Test
    void requestsOnTheSameEventLoopShareOnePool() throws Exception {
        Upstreams upstreams = new Upstreams(vertx, new dev.klave.cluster.ClusterEndpoints());
        Context context = loop();

        assertThat(clientOn(context, upstreams, Span.BRIEF)).isSameAs(clientOn(context, upstreams, Span.BRIEF));
    }

    @Test
    void eachEventLoopHasPoolsOfItsOwn() throws Exception {
        Upstreams upstreams = new Upstreams(vertx, new dev.klave.cluster.ClusterEndpoints());
        Context first = loop();
        Context second = loop();
        assertThat(((ContextInternal) first).nettyEventLoop()).isNotSameAs(((ContextInternal) second).nettyEventLoop());

        assertThat(clientOn(first, upstreams, Span.BRIEF)).isNotSameAs(clientOn(second, upstreams, Span.BRIEF));
    }

    @Test
    void streamsHaveAPoolApartFromOrdinaryRequests() throws Exception {
        Upstreams upstreams = new Upstreams(vertx, new dev.klave.cluster.ClusterEndpoints());
        Context context = loop();

        assertThat(clientOn(context, upstreams, Span.LONG_LIVED)).isNotSameAs(clientOn(context, upstreams, Span.BRIEF));
    }

    /** A context on the next event loop, as each listener has. */
    private Context loop() {
        return ((VertxInternal) vertx).createEventLoopContext();
    }

    private HttpClient clientOn(Context context, Upstreams upstreams, Span span) throws Exception {
        CompletableFuture<HttpClient> client = new CompletableFuture<>();
        context.runOnContext(ignored -> client.complete(upstreams.client(cluster, secrets, span).client()));
        return client.get(10, TimeUnit.SECONDS);
    }
}
