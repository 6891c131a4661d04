package dev.klave.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a native agent listens on for its authorization response (RFC 8252 §7.3): {@code
 * http://127.0.0.1:<port>/callback} on a port of its own, answering any request with a short page
 * and keeping the queries it received, in order.
 */
public final class TestingLoopbackListener implements AutoCloseable {
    private final HttpServer server;
    private final List<String> received = new CopyOnWriteArrayList<>();

    private TestingLoopbackListener(HttpServer server) {
        this.server = server;
    }

    public static TestingLoopbackListener start() {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TestingLoopbackListener listener = new TestingLoopbackListener(server);
        server.createContext("/callback", exchange -> {
            listener.received.add(exchange.getRequestURI().getRawQuery());
            byte[] body = "Puedes cerrar esta ventana.".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return listener;
    }

    /** The redirect URI an agent registers: this listener's callback. */
    public String redirect() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/callback";
    }

    /** The raw queries received so far. */
    public List<String> received() {
        return List.copyOf(received);
    }

    /** The first query received, waiting up to {@code wait} for it. */
    public String first(Duration wait) {
        Eventually.until("the agent's listener received its callback", wait, () -> !received.isEmpty());
        return received.getFirst();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
