package dev.klave.metrics;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.klave.config.ListenAddress;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics} in the Prometheus text format (0.0.4), on a listener of its own: the JDK's
 * HTTP server, with a virtual thread per scrape, apart from the event loops that serve clients —
 * a replica whose event loops are saturated can still be scraped, and a slow scrape never holds
 * one. Every other path is 404, every other method 405.
 */
final class MetricsListener implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsListener.class);
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final Supplier<String> scrape;
    private HttpServer server;
    private ExecutorService executor;

    MetricsListener(Supplier<String> scrape) {
        this.scrape = requireNonNull(scrape, "scrape is null");
    }

    synchronized void start(ListenAddress listen) {
        if (server != null) {
            return;
        }
        try {
            server = HttpServer.create(new InetSocketAddress(listen.host(), listen.port()), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen for metrics on " + listen, e);
        }
        executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("klave-metrics-", 0).factory());
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
        LOG.info("metrics on http://{}:{}/metrics", listen.host().contains(":") ? "[" + listen.host() + "]"
                : listen.host(), port());
    }

    synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("the metrics listener is not started");
        }
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!exchange.getRequestURI().getRawPath().equals("/metrics")) {
                answer(exchange, 404, "text/plain; charset=utf-8", "not found\n", method.equals("HEAD"));
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                answer(exchange, 405, "text/plain; charset=utf-8", "method not allowed\n", false);
                return;
            }
            answer(exchange, 200, CONTENT_TYPE, scrape.get(), method.equals("HEAD"));
        }
    }

    private static void answer(HttpExchange exchange, int status, String type, String body, boolean head)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if (head) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public synchronized void close() {
        if (server == null) {
            return;
        }
        server.stop(0);
        executor.close();
        server = null;
    }
}
