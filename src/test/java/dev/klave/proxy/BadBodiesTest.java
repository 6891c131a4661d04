package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.RawExchange;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.config.DatabaseUrl;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A request body that fails to decode half way (issue: a chunk line {@code 0x5}) ends the request
 * at once on both sides: the client gets 400 with its Audit-ID, the row is completed, and the
 * request to the cluster is reset instead of holding a pooled connection until the proxy's
 * time-out — so a flood of them leaves other users of the cluster served.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadBodiesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGMAPS = "/clusters/prod-1/api/v1/namespaces/team-a/configmaps";
    /** Names each request sent here, so that the cluster's copy of it can be told apart. */
    private static final String MARK = "X-Bad-Body";

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private TestingAccess.Viewer ana;
    private final AtomicInteger marks = new AtomicInteger();

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        // A long proxy time-out: a request left open upstream would hold its connection for it.
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_PROXY_TIMEOUT", "10m"));
        http = klave.http();
        ana = TestingAccess.viewer(klave, cluster);
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    private String head(String mark) {
        return "POST " + CONFIGMAPS + " HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer " + ana.token() + "\r\n"
                + MARK + ": " + mark + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    }

    /** Writes a head and {@code body}; what came back, once Klave closed the connection. */
    private RawExchange exchange(String body) throws Exception {
        return closed(RawExchange.send(klave.port(), head(String.valueOf(marks.incrementAndGet())) + body));
    }

    /**
     * Writes a head and {@code first}, then {@code rest} once the request has reached the cluster
     * (its head there, its body still coming); what came back, once Klave closed the connection.
     */
    private RawExchange forwardedThen(String first, String rest) throws Exception {
        String mark = String.valueOf(marks.incrementAndGet());
        return closed(RawExchange.send(klave.port(), head(mark) + first, () -> Eventually.until(
                "request " + mark + " forwarded to the cluster", Duration.ofSeconds(5),
                () -> cluster.headsArrived().stream().anyMatch(head -> head.header(MARK).equals(Optional.of(mark)))),
                rest));
    }

    private static RawExchange closed(RawExchange exchange) {
        assertThat(exchange.closedByKlave()).as("closed after a bad body:%n%s", exchange.text()).isTrue();
        return exchange;
    }

    private JsonNode completedRow(String auditId) {
        return Eventually.value("audit row " + auditId + " completed", Duration.ofSeconds(5), () -> {
            HttpResponse<String> row = http.get("/api/audit/" + auditId, "Cookie", ana.admin());
            try {
                JsonNode node = JSON.readTree(row.body());
                return row.statusCode() == 200 && node.hasNonNull("status") ? Optional.of(node) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            }
        });
    }

    private void assertRefused(RawExchange answer) throws IOException {
        assertThat(answer.text()).startsWith("HTTP/1.1 400 ");
        JsonNode status = JSON.readTree(answer.body());
        assertThat(status.get("kind").asText()).isEqualTo("Status");
        assertThat(status.get("code").asInt()).isEqualTo(400);
        assertThat(status.get("message").asText()).startsWith("petición HTTP no válida");
        JsonNode row = completedRow(answer.auditId());
        assertThat(row.get("status").asInt()).isEqualTo(400);
        assertThat(row.get("error").asText()).startsWith("petición HTTP no válida");
    }

    @Test
    void aChunkLineThatIsNotHexWithTheHeadIs400WithItsAuditRow() throws Exception {
        assertRefused(exchange("0x5\r\nhello\r\n0\r\n\r\n"));
    }

    @Test
    void aChunkLineThatIsNotHexAfterTheRequestWasForwardedIs400AndResetUpstream() throws Exception {
        RawExchange answer = forwardedThen("2\r\n{\"\r\n", "0x5\r\nhello\r\n0\r\n\r\n");

        assertRefused(answer);
        // Not a count of open connections: the request may have gone out on a pooled one, which
        // the count included before it.
        Eventually.until("the request no longer half-sent at the cluster", Duration.ofSeconds(5),
                () -> cluster.requestsReceiving() == 0);
    }

    /**
     * A client that leaves while its row is being written (the database slow: another process
     * holds SQLite's lock) is not forwarded, and its row says so (499) — every row is either a
     * request the cluster saw or one whose end it names (the benchmark's audit check).
     */
    @Test
    void aClientThatLeavesWhileItsRowIsWrittenIsRecorded499AndNeverReachesTheCluster() throws Exception {
        assertThat(http.get(CONFIGMAPS, "Authorization", "Bearer " + ana.token()).statusCode()).isEqualTo(200);
        Path file = ((DatabaseUrl.Sqlite) klave.klave().settings().database()).file();
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement lock = other.createStatement()) {
            lock.execute("BEGIN EXCLUSIVE");
            try (Socket socket = RawExchange.connect(klave.port(), "127.0.0.1")) {
                socket.getOutputStream().write(("GET " + CONFIGMAPS + "/gone-marker HTTP/1.1\r\nHost: k\r\n"
                        + "Authorization: Bearer " + ana.token() + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                socket.shutdownOutput();
                // Klave closes its end once it has read the request and then the client's: so it
                // knows the client left before the row can be written.
                assertThat(closedByKlaveWithin(socket, Duration.ofSeconds(5)))
                        .as("Klave closed its end once the client left, answering nothing").isTrue();
            }
            lock.execute("ROLLBACK");
        }

        String id = Eventually.value("the row of the request whose client left", Duration.ofSeconds(10), () ->
                klave.klave().database().withHandle(handle -> handle.select(
                        "SELECT id FROM audit WHERE path LIKE '%gone-marker'")
                        .map((row, context) -> dev.klave.store.AuditKeys.text(row.getObject("id"))).findOne()));
        assertThat(completedRow(id).get("status").asInt()).isEqualTo(499);
        assertThat(cluster.requests()).noneMatch(request -> request.path().contains("gone-marker"));
    }

    /** Whether Klave closes its end of {@code socket} within {@code timeout}, having sent nothing on it. */
    private static boolean closedByKlaveWithin(Socket socket, Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }

    /** Each one forwarded before its bad chunk line: each held a pooled connection until reset. */
    @Test
    void aFloodOfBadBodiesLeavesTheClusterServedForOthers() throws Exception {
        for (int i = 0; i < 150; i++) {
            forwardedThen("2\r\n{\"\r\n", "0x5\r\n");
        }
        long started = System.nanoTime();
        HttpResponse<String> listed = http.get(CONFIGMAPS, "Authorization", "Bearer " + ana.token());

        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }
}
