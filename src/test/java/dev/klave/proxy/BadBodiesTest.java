package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private TestingAccess.Viewer ana;

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

    private String head() {
        return "POST " + CONFIGMAPS + " HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer " + ana.token()
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    }

    /** Writes {@code parts} with a pause between them and reads until Klave closes (or 5 s pass). */
    private String exchange(Duration pause, String... parts) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", klave.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < parts.length; i++) {
                if (i > 0) {
                    Thread.sleep(pause.toMillis());
                }
                out.write(parts[i].getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            return readUntilClosed(socket.getInputStream());
        }
    }

    private static String readUntilClosed(InputStream in) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, read);
            }
        } catch (SocketTimeoutException stillOpen) {
            throw new AssertionError("Klave kept the connection open after a bad body:\n" + received);
        } catch (java.net.SocketException reset) {
            // A reset after the answer is read is fine: the answer is what is checked.
        }
        return received.toString(StandardCharsets.UTF_8);
    }

    private static String auditId(String answer) {
        Matcher matcher = Pattern.compile("(?mi)^audit-id: (\\S+)\\r?$").matcher(answer);
        assertThat(matcher.find()).as("Audit-ID in%n%s", answer).isTrue();
        return matcher.group(1);
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

    private void assertRefused(String answer) throws IOException {
        assertThat(answer).startsWith("HTTP/1.1 400 ");
        JsonNode status = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(status.get("kind").asText()).isEqualTo("Status");
        assertThat(status.get("code").asInt()).isEqualTo(400);
        assertThat(status.get("message").asText()).startsWith("petición HTTP no válida");
        JsonNode row = completedRow(auditId(answer));
        assertThat(row.get("status").asInt()).isEqualTo(400);
        assertThat(row.get("error").asText()).startsWith("petición HTTP no válida");
    }

    @Test
    void aChunkLineThatIsNotHexWithTheHeadIs400WithItsAuditRow() throws Exception {
        assertRefused(exchange(Duration.ZERO, head() + "0x5\r\nhello\r\n0\r\n\r\n"));
    }

    @Test
    void aChunkLineThatIsNotHexAfterTheRequestWasForwardedIs400AndResetUpstream() throws Exception {
        int before = cluster.openConnections();

        String answer = exchange(Duration.ofMillis(500), head() + "2\r\n{\"\r\n", "0x5\r\nhello\r\n0\r\n\r\n");

        assertRefused(answer);
        Eventually.until("the cluster's connection closed", Duration.ofSeconds(5),
                () -> cluster.openConnections() <= before);
    }

    @Test
    void aFloodOfBadBodiesLeavesTheClusterServedForOthers() throws Exception {
        for (int i = 0; i < 150; i++) {
            exchange(Duration.ofMillis(1), head() + "2\r\n{\"\r\n", "0x5\r\n");
        }
        long started = System.nanoTime();
        HttpResponse<String> listed = http.get(CONFIGMAPS, "Authorization", "Bearer " + ana.token());

        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }
}
