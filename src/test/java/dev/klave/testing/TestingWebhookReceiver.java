package dev.klave.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * A webhook receiver on 127.0.0.1 over HTTPS (its own CA, which {@link #clientTls()} trusts): it
 * records every POST (path, headers, body, when it arrived) and answers what it is told — a status,
 * a reset (the connection closed with no answer) or nothing at all (held until the receiver
 * closes) — for any path or for one path, then 200 once its script runs out.
 */
public final class TestingWebhookReceiver implements AutoCloseable {
    /** A scripted answer: a status, or {@code RESET} for a connection closed without one. */
    public static final int RESET = -1;
    /** A scripted answer: none, ever — the request is recorded and held until the receiver closes. */
    public static final int HANG = -2;

    private final HttpsServer server;
    private final SSLContext clientTls;
    private final ConcurrentLinkedQueue<Integer> script = new ConcurrentLinkedQueue<>();
    private final Map<String, ConcurrentLinkedQueue<Integer>> scripts = new ConcurrentHashMap<>();
    private final Map<String, Runnable> beforeAnswering = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    /**
     * One request as it arrived.
     *
     * @param status what was answered ({@link #HANG}: nothing)
     * @param arrivedAt when it arrived, in {@link System#nanoTime()} terms
     */
    public record Received(String path, Map<String, List<String>> headers, String body, int status, long arrivedAt) {
        public String header(String name) {
            return headers.entrySet().stream().filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .findFirst().map(entry -> entry.getValue().get(0)).orElse(null);
        }
    }

    private TestingWebhookReceiver(HttpsServer server, SSLContext clientTls) {
        this.server = server;
        this.clientTls = clientTls;
    }

    public static TestingWebhookReceiver start() {
        try {
            TestingTls.Pair tls = TestingTls.serverAndClient("webhook-receiver");
            SSLContext serverTls = tls.server();
            SSLContext clientTls = tls.client();
            HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            TestingWebhookReceiver receiver = new TestingWebhookReceiver(server, clientTls);
            server.createContext("/", receiver::handle);
            server.start();
            return receiver;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot start the webhook receiver", e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        long arrived = System.nanoTime();
        String path = exchange.getRequestURI().getPath();
        Integer answer = scripts.getOrDefault(path, new ConcurrentLinkedQueue<>()).poll();
        if (answer == null) {
            answer = script.poll();
        }
        if (answer != null && answer == RESET) {
            // No answer at all: the connection goes away under the sender.
            exchange.close();
            exchange.getHttpContext().getServer();
            throw new IOException("reset on purpose");
        }
        if (answer != null && answer == HANG) {
            received.add(new Received(path, Map.copyOf(exchange.getRequestHeaders()),
                    new String(body, StandardCharsets.UTF_8), HANG, arrived));
            try {
                closing.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
            return;
        }
        Runnable before = beforeAnswering.get(path);
        if (before != null) {
            before.run();
        }
        int status = answer == null ? 200 : answer;
        received.add(new Received(path, Map.copyOf(exchange.getRequestHeaders()),
                new String(body, StandardCharsets.UTF_8), status, arrived));
        byte[] reply = "ok".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, reply.length);
        exchange.getResponseBody().write(reply);
        exchange.close();
    }

    /** The next answers, in order (statuses, {@link #RESET} or {@link #HANG}). */
    public void answer(Integer... answers) {
        script.addAll(List.of(answers));
    }

    /** The next answers at {@code path}, before those for any path. */
    public void answerAt(String path, Integer... answers) {
        scripts.computeIfAbsent(path, any -> new ConcurrentLinkedQueue<>()).addAll(List.of(answers));
    }

    /** Runs {@code action} before each answer at {@code path} (a slow receiver: move a test's clock). */
    public void beforeAnswering(String path, Runnable action) {
        beforeAnswering.put(path, action);
    }

    /** What arrived at {@code path} (resets are not recorded: nothing was answered). */
    public List<Received> at(String path) {
        List<Received> matching = new ArrayList<>();
        for (Received one : received) {
            if (one.path().equals(path)) {
                matching.add(one);
            }
        }
        return matching;
    }

    public String url(String path) {
        return "https://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** What Klave must trust to reach this receiver. */
    public SSLContext clientTls() {
        return clientTls;
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
    }
}
