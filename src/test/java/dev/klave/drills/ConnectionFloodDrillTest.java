package dev.klave.drills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.RawExchange;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One client must not be able to take Klave, or a cluster, away from everyone else: floods of
 * what a misbehaving client sends, at a size this machine takes inside a test, while other
 * clients' health checks and proxied requests are timed (RELIABILITY.md).
 */
class ConnectionFloodDrillTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGMAPS = "/clusters/prod-1/api/v1/namespaces/team-a/configmaps";
    /** Far above what a request takes here (a few ms); what "keeps answering in its normal time" allows. */
    private static final Duration NORMAL = Duration.ofSeconds(1);
    /** Names each request of the bad-body flood, so that its arrival at the cluster can be seen. */
    private static final String MARK = "X-Bad-Body";

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private final List<Socket> sockets = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger marks = new AtomicInteger();

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        klave.close();
        cluster.close();
    }

    private Socket connect(String from) throws IOException {
        Socket socket = RawExchange.connect(klave.port(), from);
        sockets.add(socket);
        return socket;
    }

    /** One request on a connection of its own from {@code from}; its status line's code. */
    private int request(String from, String target, String token) throws IOException {
        try (Socket socket = connect(from)) {
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: k\r\nConnection: close\r\n"
                    + (token.isEmpty() ? "" : "Authorization: Bearer " + token + "\r\n") + "\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return answer.startsWith("HTTP/1.1 ") ? Integer.parseInt(answer.substring(9, 12)) : -1;
        }
    }

    /** Others' requests, timed, while {@code flood} runs; every one must be answered 200 in normal time. */
    private List<Duration> timedWhile(Runnable flood, Probe probe) throws InterruptedException {
        return timedWhile((IntSupplier answered) -> flood.run(), probe);
    }

    /** The same, for a flood that lasts until others have had {@code answered} requests timed. */
    private List<Duration> timedWhile(Consumer<IntSupplier> flood, Probe probe) throws InterruptedException {
        ConcurrentLinkedQueue<Duration> timings = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread others = Thread.ofVirtual().start(() -> {
            while (running.get()) {
                long started = System.nanoTime();
                try {
                    int status = probe.status();
                    timings.add(Duration.ofNanos(System.nanoTime() - started));
                    if (status != 200) {
                        failures.add("status " + status);
                    }
                    Thread.sleep(50); // the probe's pace: a client among others, not a flood of its own
                } catch (IOException | RuntimeException e) {
                    failures.add(e.toString());
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try {
            flood.accept(timings::size);
        } finally {
            running.set(false);
            others.join(Duration.ofSeconds(15));
        }
        assertThat(failures).as("others' requests during the flood").isEmpty();
        assertThat(timings).as("others' requests during the flood").hasSizeGreaterThan(10);
        return List.copyOf(timings);
    }

    @FunctionalInterface
    private interface Probe {
        int status() throws IOException;
    }

    @Test
    void anIdleConnectionFloodLeavesHealthChecksAndProxiedRequestsAnswered() throws Exception {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_REQUEST_HEAD_TIMEOUT", "3s")
                .with("SERVICE_MAX_CONNECTIONS_PER_ADDRESS", "1500"));
        String token = TestingAccess.viewer(klave, cluster).token();
        List<Socket> flood = new ArrayList<>();

        List<Duration> health = timedWhile(() -> {
            try {
                // 2,000 connections that send nothing and 300 that send a header byte every
                // half second, from one address; past its 1,500 they are refused at once.
                for (int i = 0; i < 2_000; i++) {
                    flood.add(connect("127.0.0.1"));
                }
                List<Socket> trickling = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    trickling.add(connect("127.0.0.4"));
                }
                for (int round = 0; round < 8; round++) {
                    for (Socket socket : trickling) {
                        try {
                            socket.getOutputStream().write(round == 0 ? 'G' : 'X');
                        } catch (IOException closedByKlave) {
                            // expected once its head time-out has passed
                        }
                    }
                    Thread.sleep(500); // the trickling clients' pace: a header byte each half second
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, () -> request("127.0.0.2", "/healthz", ""));
        // Proxied requests timed while the flood's connections stay: a window of a dozen requests, not
        // of a fixed time, so that a machine busy with other work still samples enough of them.
        List<Duration> proxied = timedWhile((IntSupplier answered) -> Eventually.until("a dozen proxied requests "
                + "during the flood", Duration.ofSeconds(20), () -> answered.getAsInt() > 11),
                () -> request("127.0.0.3", CONFIGMAPS, token));

        assertThat(health).allSatisfy(took -> assertThat(took).isLessThan(NORMAL));
        assertThat(proxied).allSatisfy(took -> assertThat(took).isLessThan(NORMAL));
        Eventually.until("the flood's connections all closed by Klave after the head time-out", Duration.ofSeconds(10),
                () -> flood.stream().allMatch(ConnectionFloodDrillTest::closedByKlave));
    }

    @Test
    void aBadBodyFloodLeavesOtherUsersOfTheClusterAnsweredInTheirNormalTime() throws Exception {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_PROXY_TIMEOUT", "10m"));
        TestingAccess.Viewer ana = TestingAccess.viewer(klave, cluster);
        String other = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie",
                ana.cookie()).body()).get("token").asText();
        List<Duration> timings = timedWhile(() -> {
            // An attacker's failed assertion fails the flood, and so the test.
            List<CompletableFuture<Void>> attackers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                attackers.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 75; i++) {
                        badBody(ana.token());
                    }
                }, runnable -> Thread.ofVirtual().start(runnable)));
            }
            CompletableFuture.allOf(attackers.toArray(CompletableFuture[]::new)).join();
        }, () -> request("127.0.0.2", CONFIGMAPS, other));

        assertThat(timings).allSatisfy(took -> assertThat(took).isLessThan(NORMAL));
        // Not a count of open connections: one the pool opened for a request that had already
        // given up stays idle in the pool, and holds nothing.
        Eventually.until("no request of the flood left half-sent at the cluster", Duration.ofSeconds(10),
                () -> cluster.requestsReceiving() == 0);
    }

    /**
     * A request forwarded with its first chunk (its head seen at the cluster, where it holds a
     * pooled connection), then a chunk line that is no hex number.
     */
    private void badBody(String token) {
        String mark = String.valueOf(marks.incrementAndGet());
        try (Socket socket = connect("127.0.0.1")) {
            socket.getOutputStream().write(("POST " + CONFIGMAPS + " HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer " + token
                    + "\r\n" + MARK + ": " + mark + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                    + "\r\n2\r\n{\"\r\n").getBytes(StandardCharsets.ISO_8859_1));
            Eventually.until("flood request " + mark + " forwarded to the cluster", Duration.ofSeconds(10),
                    () -> cluster.headsArrived().stream().anyMatch(head -> head.header(MARK).equals(Optional.of(mark))));
            socket.getOutputStream().write("0x5\r\nhello\r\n".getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 400 ");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            sockets.removeIf(Socket::isClosed);
        }
    }

    private static boolean closedByKlave(Socket socket) {
        try {
            socket.setSoTimeout(1);
            InputStream in = socket.getInputStream();
            return in.read() < 0;
        } catch (SocketException reset) {
            return true;
        } catch (IOException stillOpen) {
            return false;
        }
    }
}
