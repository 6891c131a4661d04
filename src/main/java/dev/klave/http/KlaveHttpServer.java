package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.config.BaseUrl;
import dev.klave.config.Cidr;
import dev.klave.config.ListenAddress;
import dev.klave.config.ServerTls;
import dev.klave.config.Settings;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemKeyCertOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one HTTP server: dispatches health, API and web interface requests, and shuts down in the
 * order an orchestrator expects — readiness fails first, requests in flight finish (bounded),
 * then the caller may close what the requests used.
 */
public final class KlaveHttpServer {
    private static final Logger LOG = LoggerFactory.getLogger(KlaveHttpServer.class);

    /** RFC 6797: a year; only sent when the base URL is https, so a browser never pins a plain-HTTP install. */
    private static final String STRICT_TRANSPORT = "max-age=31536000";

    private final Vertx vertx;
    /** Event loops that accept connections: one per core ({@code -Dklave.listeners=N} for A/B measurements). */
    private static final int LISTENERS = Math.max(1, Integer.getInteger("klave.listeners",
            Runtime.getRuntime().availableProcessors()));

    private final List<HttpServer> servers;
    private final ExecutorService blocking;
    private final AtomicBoolean draining;

    private KlaveHttpServer(Vertx vertx, List<HttpServer> servers, ExecutorService blocking, AtomicBoolean draining) {
        this.vertx = vertx;
        this.servers = servers;
        this.blocking = blocking;
        this.draining = draining;
    }

    /** Starts listening; fails when the address cannot be bound. */
    public static KlaveHttpServer start(Settings settings, ApiRoutes routes, Authenticator authenticator,
            Readiness readiness, WebAssets assets, ProxyFactory proxyFactory, NetworkEngine network) {
        ListenAddress listen = settings.listen();
        Optional<ServerTls> tls = settings.tls();
        BaseUrl baseUrl = settings.baseUrl();
        List<Cidr> trustedProxies = settings.trustedProxies();
        Vertx vertx = NetworkEngine.vertx();
        ExecutorService blocking = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("klave-work-", 0).factory());
        AtomicBoolean draining = new AtomicBoolean();
        HealthHandler health = new HealthHandler(readiness, draining::get, blocking);
        ApiHandler api = new ApiHandler(routes, new OriginPolicy(baseUrl), new ClientAddresses(trustedProxies), blocking,
                authenticator);
        SpaHandler web = new SpaHandler(assets);
        ProxyFactory.Proxy proxied = proxyFactory.create(vertx, blocking, draining::get);
        Handler<HttpServerRequest> proxy = proxied.handler();
        EdgeMap map = new EdgeMap(routes);
        EdgeRefusals refusals = new EdgeRefusals(map, proxied.refusals(), new ClientAddresses(trustedProxies));
        HttpServerOptions options = new HttpServerOptions()
                .setHost(listen.host())
                .setPort(listen.port())
                // No idle timeout of Vert.x's: a watch may stay silent for hours. Connections with
                // no request in flight are closed by ConnectionDeadlines; dead peers are found by
                // TCP keep-alive.
                .setIdleTimeout(0)
                .setTcpKeepAlive(true)
                // HTTP/1.1 only. No h2c: an upgrade to it is declined (CleartextHttp2), a client
                // speaking it from the first byte is refused (505, RequestFraming); no HTTP/2 over
                // TLS either (no ALPN) until it is tested as HTTP/1.1 is.
                .setHttp2ClearTextEnabled(false)
                .setUseAlpn(false);
        // A TLS handshake is bounded like a request head: it is the first part of one.
        tls.ifPresent(files -> options.setSsl(true).setSslEngineOptions(network.tls())
                .setSslHandshakeTimeout(settings.connections().headTimeout().toMillis())
                .setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS)
                .setKeyCertOptions(new PemKeyCertOptions()
                .setCertPath(files.certificate().toString())
                .setKeyPath(files.privateKey().toString())));
        Optional<String> strictTransport = baseUrl.isHttps() ? Optional.of(STRICT_TRANSPORT) : Optional.empty();
        Handler<HttpServerRequest> handler = request -> {
            strictTransport.ifPresent(value -> request.response().putHeader("Strict-Transport-Security", value));
            CleartextHttp2.declineUpgrade(request);
            dispatch(request, map, health, api, proxy, web);
        };
        Handler<HttpServerRequest> malformed = request -> {
            strictTransport.ifPresent(value -> request.response().putHeader("Strict-Transport-Security", value));
            refusals.malformed(request);
        };
        List<HttpServer> servers = new CopyOnWriteArrayList<>();
        try {
            // One listener per core, each on an event loop of its own, sharing the port: Vert.x
            // hands each new connection to the next of them (bench/RESULTS.md). Port 0 (any free
            // port, used by tests) gets one listener: Vert.x would give each instance a port of its own.
            ConnectionGuard guard = new ConnectionGuard(settings.connections(), settings.addressGroups(),
                    new ClientAddresses(trustedProxies), options);
            listen(vertx, options, handler, malformed, guard, servers, listen.port() == 0 ? 1 : LISTENERS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            vertx.close();
            throw new IllegalStateException("interrupted while starting", e);
        } catch (ExecutionException | TimeoutException e) {
            vertx.close();
            blocking.shutdownNow();
            throw new IllegalStateException("cannot listen on " + listen + ": " + e.getCause(), e);
        }
        return new KlaveHttpServer(vertx, List.copyOf(servers), blocking, draining);
    }

    /** Deploys {@code instances} listeners, each on its own event loop, and waits until they listen. */
    private static void listen(Vertx vertx, HttpServerOptions options, Handler<HttpServerRequest> handler,
            Handler<HttpServerRequest> malformed, ConnectionGuard guard, List<HttpServer> servers, int instances)
            throws InterruptedException, ExecutionException, TimeoutException {
        vertx.deployVerticle(() -> new VerticleBase() {
            @Override
            public Future<?> start() {
                HttpServer server = vertx.createHttpServer(options)
                        .requestHandler(handler)
                        .invalidRequestHandler(malformed)
                        .connectionHandler(guard::accept);
                return server.listen().onSuccess(servers::add);
            }
        }, new DeploymentOptions().setInstances(instances))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static void dispatch(HttpServerRequest request, EdgeMap map, HealthHandler health, ApiHandler api,
            Handler<HttpServerRequest> proxy, SpaHandler web) {
        switch (map.of(request.path())) {
            case EdgeMap.Liveness _ -> health.liveness(request);
            case EdgeMap.Readiness _ -> health.readiness(request);
            case EdgeMap.Api _ -> api.handle(request);
            case EdgeMap.Proxy _ -> proxy.handle(request);
            case EdgeMap.Web _ -> web.handle(request);
        }
    }

    /** The port actually bound (useful with port 0). */
    public int port() {
        return servers.get(0).actualPort();
    }

    /** From now on {@code /readyz} answers 503, so load balancers stop sending new requests. */
    public void startDraining() {
        if (draining.compareAndSet(false, true)) {
            LOG.info("shutting down: /readyz now answers 503");
        }
    }

    /**
     * Graceful stop in three steps. Readiness fails at once, while requests are still served for
     * {@code delay} so that load balancers (a Kubernetes Service, an ingress) notice and stop
     * sending new ones; then the listener closes and requests in flight get up to {@code timeout}
     * to finish; then whatever is left is closed. Returns whether everything finished in time.
     */
    public boolean shutdown(Duration delay, Duration timeout) {
        startDraining();
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("closing the listener; waiting up to {} for requests in flight", timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean clean = true;
        try {
            Future.all(servers.stream().map(server -> server.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS))
                    .toList()).toCompletionStage().toCompletableFuture()
                    .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            clean = false;
            LOG.warn("requests still open after {}; closing them", timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            clean = false;
        }
        blocking.shutdown();
        try {
            long left = Math.max(0, deadline - System.nanoTime());
            if (!blocking.awaitTermination(left, TimeUnit.NANOSECONDS)) {
                clean = false;
                blocking.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            clean = false;
        }
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("event loops did not stop cleanly: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return clean;
    }
}
