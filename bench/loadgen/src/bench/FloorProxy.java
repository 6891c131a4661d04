package bench;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * The floor of Klave's stack: a reverse proxy on the same Vert.x, with the same TLS on both sides
 * (OpenSSL towards clients, the JDK's towards the cluster), the same pool of 64 kept-alive
 * connections per event loop and one listener per core, that does nothing else: no credential, no grant, no
 * impersonation, no audit row. What it reaches against nginx bounds what any Klave built on this
 * stack can reach on the same machine (bench/RESULTS.md, "Targets not met").
 */
final class FloorProxy {
    private static final String PREFIX = "/clusters/bench";
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "te", "trailer", "upgrade", "host");

    private FloorProxy() {}

    static void serve(Args args) throws Exception {
        // Logback's default is DEBUG to the console: Netty would log every TLS handshake.
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        URI upstream = URI.create(args.text("upstream"));
        Vertx vertx = Vertx.vertx();
        HttpClientOptions clientOptions = new HttpClientOptions()
                .setSsl(true)
                .setTrustOptions(new PemTrustOptions().addCertPath(args.text("ca")))
                .setVerifyHost(true)
                .setKeepAlive(true);
        HttpServerOptions options = new HttpServerOptions()
                .setHost("127.0.0.1")
                .setPort(args.number("port", 0))
                .setIdleTimeout(0)
                .setSsl(true)
                .setSslEngineOptions(new OpenSSLEngineOptions().setSessionCacheEnabled(true))
                .setKeyCertOptions(new PemKeyCertOptions().setCertPath(args.text("cert")).setKeyPath(args.text("key")));
        vertx.deployVerticle(() -> new VerticleBase() {
            @Override
            public Future<?> start() {
                // Like Klave's Upstreams: a pool per event loop, so a request never changes loops.
                HttpClient client = vertx.createHttpClient(clientOptions, new PoolOptions().setHttp1MaxSize(64));
                return vertx.createHttpServer(options)
                        .requestHandler(request -> forward(client, upstream, request))
                        .listen();
            }
        }, new DeploymentOptions().setInstances(Runtime.getRuntime().availableProcessors()))
                .toCompletionStage().toCompletableFuture().get();
        System.err.println("floor proxy listening on " + options.getPort());
        Thread.currentThread().join();
    }

    private static void forward(HttpClient client, URI upstream, HttpServerRequest request) {
        String uri = request.uri().startsWith(PREFIX) ? request.uri().substring(PREFIX.length()) : request.uri();
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        request.headers().forEach((name, value) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                headers.add(name, value);
            }
        });
        request.pause();
        client.request(new RequestOptions().setMethod(request.method()).setHost(upstream.getHost())
                        .setPort(upstream.getPort()).setURI(uri).setHeaders(headers))
                .compose(outgoing -> outgoing.send(request))
                .onSuccess(answer -> {
                    var response = request.response().setStatusCode(answer.statusCode());
                    answer.headers().forEach((name, value) -> {
                        if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                            response.headers().add(name, value);
                        }
                    });
                    if (answer.getHeader("content-length") == null) {
                        response.setChunked(true);
                    }
                    answer.pipeTo(response);
                })
                .onFailure(failure -> request.response().setStatusCode(502).end());
    }
}
