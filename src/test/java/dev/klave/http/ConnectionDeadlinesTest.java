package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.RawExchange;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingTls;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A connection costs an open file; one that sends no request, or sends it a byte at a time, is
 * closed (head time-out 1 s, idle time-out 2 s here), a connection with a request in flight — a
 * silent watch — is not, and no address holds more than its share (5 here).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectionDeadlinesTest {
    private static final Duration HEAD = Duration.ofSeconds(1);
    private static final Duration IDLE = Duration.ofSeconds(2);

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingKlave tlsKlave;
    private TestingTls tls;
    private TestingAccess.Viewer ana;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_REQUEST_HEAD_TIMEOUT", "1s")
                .with("SERVICE_IDLE_TIMEOUT", "2s").with("SERVICE_MAX_CONNECTIONS_PER_ADDRESS", "5"));
        ana = TestingAccess.viewer(klave, cluster);
        tls = TestingTls.generate();
        tlsKlave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_REQUEST_HEAD_TIMEOUT", "1s")
                .with("SERVICE_TLS_CERT", tls.certificate().toString())
                .with("SERVICE_TLS_KEY", tls.privateKey().toString()));
    }

    @AfterAll
    void stop() {
        tlsKlave.close();
        klave.close();
        cluster.close();
    }

    private Socket connect(String from) throws IOException {
        return RawExchange.connect(klave.port(), from);
    }

    /** Reads what comes until Klave closes; fails if it does not within 10 s. Returns how long that took. */
    private static Duration untilClosed(Socket socket, ByteArrayOutputStream received) throws IOException {
        long started = System.nanoTime();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, read);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("Klave kept the connection open; received so far:\n" + received);
        } catch (SocketException reset) {
            // closed with our bytes unread: closed all the same
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    private static String head(Socket socket) throws IOException {
        return RawExchange.head(socket);
    }

    @Test
    void aConnectionThatSendsNothingIsClosedAfterTheHeadTimeOut() throws Exception {
        try (Socket socket = connect("127.0.0.1")) {
            ByteArrayOutputStream received = new ByteArrayOutputStream();

            Duration open = untilClosed(socket, received);

            assertThat(open).isBetween(HEAD.minusMillis(200), HEAD.plusSeconds(2));
            assertThat(received.size()).isZero();
        }
    }

    @Test
    void aHeadSentAByteAtATimeIsClosedAtTheHeadTimeOutFromItsFirstByte() throws Exception {
        try (Socket socket = connect("127.0.0.1")) {
            long started = System.nanoTime();
            OutputStream out = socket.getOutputStream();
            byte[] head = "GET /healthz HTTP/1.1\r\nHost: k\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
            boolean closed = false;
            for (int i = 0; i < head.length && !closed; i++) {
                try {
                    out.write(head[i]);
                    out.flush();
                    Thread.sleep(250); // the slow client's pace, not a wait for anything
                } catch (SocketException reset) {
                    closed = true;
                }
            }
            if (!closed) {
                untilClosed(socket, new ByteArrayOutputStream());
            }

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(HEAD.plusSeconds(2));
        }
    }

    @Test
    void aKeptAliveConnectionIsClosedOnceIdleForTheIdleTimeOut() throws Exception {
        try (Socket socket = connect("127.0.0.1")) {
            socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: k\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            assertThat(head(socket)).startsWith("HTTP/1.1 200 ");
            socket.getInputStream().readNBytes(2);

            Duration open = untilClosed(socket, new ByteArrayOutputStream());

            assertThat(open).isBetween(IDLE.minusMillis(200), IDLE.plusSeconds(2));
        }
    }

    @Test
    void aSilentWatchIsNotIdle() throws Exception {
        try (Socket socket = connect("127.0.0.1")) {
            socket.getOutputStream().write(("GET /clusters/prod-1/api/v1/namespaces/team-a/configmaps?watch=true HTTP/1.1"
                    + "\r\nHost: k\r\nAuthorization: Bearer " + ana.token() + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            assertThat(head(socket)).startsWith("HTTP/1.1 200 ");
            socket.setSoTimeout((int) IDLE.plusSeconds(2).toMillis());

            try {
                int read = socket.getInputStream().read();
                throw new AssertionError("the watch ended or sent something: " + read);
            } catch (SocketTimeoutException stillOpen) {
                assertThat(socket.isClosed()).isFalse();
            }
        }
    }

    @Test
    void aBodyThatStopsComingIsClosedAfterTheIdleTimeOut() throws Exception {
        try (Socket socket = connect("127.0.0.1")) {
            socket.getOutputStream().write(("POST /api/auth/login HTTP/1.1\r\nHost: k\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"login\":").getBytes(StandardCharsets.ISO_8859_1));

            Duration open = untilClosed(socket, new ByteArrayOutputStream());

            assertThat(open).isBetween(IDLE.minusMillis(200), IDLE.plusSeconds(2));
        }
    }

    @Test
    void oneAddressHoldsAtMostItsShareOfConnectionsAndOthersAreStillServed() throws Exception {
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                // Answered once, so Klave has accepted and counted it; then idle, and held.
                Socket held = connect("127.0.0.1");
                flood.add(held);
                held.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: k\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                assertThat(head(held)).startsWith("HTTP/1.1 200 ");
            }
            try (Socket sixth = connect("127.0.0.1"); Socket other = connect("127.0.0.2")) {
                Duration refused = untilClosed(sixth, new ByteArrayOutputStream());
                other.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: k\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));

                assertThat(refused).as("closed at once, not at the head time-out").isLessThan(HEAD.dividedBy(2));
                assertThat(head(other)).startsWith("HTTP/1.1 200 ");
            }
        } finally {
            for (Socket socket : flood) {
                socket.close();
            }
        }
        // The places come back when Klave sees the closes, which is a moment after ours.
        String answer = Eventually.value("a place given back once the flood's connections closed", Duration.ofSeconds(5),
                () -> healthz("127.0.0.1"));
        assertThat(answer).startsWith("HTTP/1.1 200 ");
    }

    /** The head of a health check from {@code from}, or empty when Klave closed the connection instead. */
    private Optional<String> healthz(String from) {
        try (Socket socket = connect(from)) {
            socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: k\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            return Optional.of(head(socket));
        } catch (IOException | AssertionError closed) {
            return Optional.empty();
        }
    }

    @Test
    void overTlsAFinishedHandshakeFollowedByAPartialHeadIsClosed() throws Exception {
        X509Certificate certificate;
        try (InputStream in = java.nio.file.Files.newInputStream(tls.certificate())) {
            certificate = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("klave", certificate);
        TrustManagerFactory trusting = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trusting.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trusting.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", tlsKlave.port())) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHo".getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();

            Duration open = untilClosed(socket, new ByteArrayOutputStream());

            assertThat(open).isLessThan(HEAD.plusSeconds(2));
        }
    }
}
