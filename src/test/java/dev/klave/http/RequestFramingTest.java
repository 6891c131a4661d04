package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.RawExchange;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Request framing at the edge (RFC 9112 §3.2, §5.2, §6.1, §6.3; RFC 9113 §3): every ambiguous form
 * a front end could read differently is refused with its status, answered once, written to the
 * audit under the {@code Audit-ID} it carries, and the connection is closed — so bytes a client
 * leaves behind never become a request, and nothing reaches the cluster. The requests are written
 * byte for byte on a raw socket.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestFramingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGMAPS = "/clusters/prod-1/api/v1/namespaces/team-a/configmaps";

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private String token;
    private String credentialId;

    @BeforeAll
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        TestingAccess.Viewer ana = TestingAccess.viewer(klave, cluster);
        admin = ana.admin();
        token = ana.token();
        credentialId = ana.credentialId();
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    private RawExchange send(String bytes) throws IOException {
        return RawExchange.send(klave.port(), bytes);
    }

    private boolean reached(String marker) {
        return cluster.requests().stream().anyMatch(request -> request.path().contains(marker));
    }

    private JsonNode auditRow(String auditId) throws IOException {
        HttpResponse<String> row = http.get("/api/audit/" + auditId, "Cookie", admin);
        assertThat(row.statusCode()).as("audit row %s: %s", auditId, row.body()).isEqualTo(200);
        return JSON.readTree(row.body());
    }

    /** A request whose body a Content-Length front end sees as five bytes, and Netty as an empty chunked body. */
    @Test
    void contentLengthWithChunkedIsRefusedAndTheSmuggledRequestNeverRuns() throws Exception {
        String smuggled = "GET " + CONFIGMAPS + "/smuggled-marker HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer " + token
                + "\r\n\r\n";
        RawExchange exchange = send("POST " + CONFIGMAPS + "/smuggling-marker HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                + smuggled);

        assertThat(exchange.text()).startsWith("HTTP/1.1 400 ")
                .contains("\"message\":\"petición HTTP no válida: Transfer-Encoding y Content-Length a la vez\"")
                .containsIgnoringCase("connection: close");
        assertThat(exchange.responses()).isEqualTo(1);
        assertThat(exchange.closedByKlave()).isTrue();
        assertThat(reached("smuggled-marker")).isFalse();
        assertThat(reached("smuggling-marker")).isFalse();
        JsonNode row = auditRow(exchange.auditId());
        assertThat(row.get("status").asInt()).isEqualTo(400);
        assertThat(row.get("error").asText()).isEqualTo(
                "petición HTTP no válida: Transfer-Encoding y Content-Length a la vez");
        assertThat(row.get("cluster").asText()).isEqualTo("prod-1");
        assertThat(row.get("credential").asText()).isEqualTo(credentialId);
    }

    static Stream<Arguments> refusedHeads() {
        String post = "POST /clusters/prod-1/api/v1/namespaces/team-a/configmaps/framing-marker HTTP/1.1\r\n";
        return Stream.of(
                Arguments.of("chunked then identity", post + "Host: k\r\nTransfer-Encoding: chunked, identity\r\n",
                        400, "petición HTTP no válida: chunked debe ser la última codificación de Transfer-Encoding, "
                                + "y solo una vez"),
                Arguments.of("chunked twice", post + "Host: k\r\nTransfer-Encoding: chunked\r\n"
                        + "Transfer-Encoding: chunked\r\n", 400, "petición HTTP no válida: chunked debe ser la última "
                        + "codificación de Transfer-Encoding, y solo una vez"),
                Arguments.of("unknown coding beside a length", post + "Host: k\r\nTransfer-Encoding: xchunked\r\n"
                        + "Content-Length: 0\r\n", 400,
                        "petición HTTP no válida: Transfer-Encoding y Content-Length a la vez"),
                Arguments.of("unknown coding", post + "Host: k\r\nTransfer-Encoding: xchunked\r\n", 501,
                        "codificación de transferencia no admitida: xchunked"),
                Arguments.of("coding not implemented", post + "Host: k\r\nTransfer-Encoding: gzip, chunked\r\n", 501,
                        "codificación de transferencia no admitida: gzip"),
                Arguments.of("obs-folded Transfer-Encoding", post + "Host: k\r\nTransfer-Encoding:\r\n chunked\r\n",
                        400, "petición HTTP no válida: cabecera partida en varias líneas (obs-fold)"),
                Arguments.of("obs-folded other header", post + "Host: k\r\nX-Note: one\r\n\ttwo\r\nContent-Length: 0\r\n",
                        400, "petición HTTP no válida: cabecera partida en varias líneas (obs-fold)"),
                Arguments.of("chunked in HTTP/1.0", post.replace("HTTP/1.1", "HTTP/1.0")
                        + "Transfer-Encoding: chunked\r\n", 400, "petición HTTP no válida: Transfer-Encoding en HTTP/1.0"),
                Arguments.of("no Host in HTTP/1.1", post + "Content-Length: 0\r\n", 400,
                        "petición HTTP no válida: falta la cabecera Host"),
                Arguments.of("two Hosts", post + "Host: k\r\nHost: other\r\nContent-Length: 0\r\n", 400,
                        "petición HTTP no válida: más de una cabecera Host"),
                Arguments.of("two lengths", post + "Host: k\r\nContent-Length: 0\r\nContent-Length: 0\r\n", 400,
                        "petición HTTP no válida"),
                Arguments.of("space before the colon", post + "Host: k\r\nContent-Length : 0\r\n", 400,
                        "petición HTTP no válida"),
                Arguments.of("HTTP/2 in text", post.replace("HTTP/1.1", "HTTP/2.0") + "Host: k\r\n", 505,
                        "versión de HTTP no admitida: HTTP/2.0"),
                Arguments.of("head too large", post + "Host: k\r\nX-Big: " + "b".repeat(9_000) + "\r\n", 431,
                        "cabeceras de la petición demasiado grandes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedHeads")
    void ambiguousFramingIsRefusedAuditedAndTheConnectionClosed(String name, String head, int status, String message)
            throws Exception {
        // A valid credential and a request queued behind: neither may help the refused one through.
        RawExchange exchange = send(head + "Authorization: Bearer " + token + "\r\n\r\n0\r\n\r\n"
                + "GET " + CONFIGMAPS + "/behind-marker HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer " + token
                + "\r\n\r\n");

        assertThat(exchange.text()).matches("(?s)HTTP/1\\.[01] " + status + " .*");
        assertThat(exchange.responses()).isEqualTo(1);
        assertThat(exchange.closedByKlave()).as("connection closed after%n%s", exchange.text()).isTrue();
        assertThat(reached("framing-marker")).isFalse();
        assertThat(reached("behind-marker")).isFalse();
        JsonNode row = auditRow(exchange.auditId());
        assertThat(row.get("status").asInt()).isEqualTo(status);
        assertThat(row.get("error").asText()).isEqualTo(message);
    }

    @Test
    void aTargetTooLongIs414WithItsAuditRow() throws Exception {
        RawExchange exchange = send("GET /clusters/prod-1/api/v1/" + "a".repeat(5_000) + " HTTP/1.1\r\nHost: k\r\n\r\n");

        // Netty reads no version from a line it could not read: the answer is HTTP/1.0.
        assertThat(exchange.text()).startsWith("HTTP/1.0 414 ");
        assertThat(exchange.closedByKlave()).isTrue();
        assertThat(auditRow(exchange.auditId()).get("error").asText()).isEqualTo("dirección de la petición demasiado larga");
    }

    @Test
    void refusalsUnderApiAreJsonErrorsAndElsewherePlainText() throws Exception {
        RawExchange api = send("POST /api/auth/login HTTP/1.1\r\nHost: k\r\nContent-Length: 2\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        RawExchange page = send("GET /login HTTP/1.1\r\nHost: k\r\nX-Note: a\r\n b\r\n\r\n");

        assertThat(api.text()).startsWith("HTTP/1.1 400 ").endsWith(
                "{\"error\":\"petición HTTP no válida: Transfer-Encoding y Content-Length a la vez\"}");
        assertThat(page.text()).startsWith("HTTP/1.1 400 ").endsWith(
                "petición HTTP no válida: cabecera partida en varias líneas (obs-fold)");
        assertThat(api.closedByKlave()).isTrue();
        assertThat(page.closedByKlave()).isTrue();
        assertThat(auditRow(page.auditId()).get("path").asText()).isEqualTo("/login");
    }

    @Test
    void aRefusalBeforeAnyRouteTakesTheFormOfTheMountItWasSentTo() throws Exception {
        String smuggling = " HTTP/1.1\r\nHost: k\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
        String text = "petición HTTP no válida: Transfer-Encoding y Content-Length a la vez";

        RawExchange mcp = send("POST /mcp" + smuggling);
        RawExchange oauth = send("POST /oauth/token" + smuggling);
        RawExchange proxy = send("POST " + CONFIGMAPS + smuggling);

        assertThat(mcp.text()).startsWith("HTTP/1.1 400 ").endsWith("{\"error\":\"" + text + "\"}");
        assertThat(oauth.text()).startsWith("HTTP/1.1 400 ")
                .endsWith("{\"error\":\"invalid_request\",\"error_description\":\"" + text + "\"}");
        JsonNode status = JSON.readTree(proxy.text().substring(proxy.text().indexOf("\r\n\r\n") + 4));
        assertThat(status.get("kind").asText()).isEqualTo("Status");
        assertThat(status.get("message").asText()).isEqualTo(text);
        for (RawExchange exchange : new RawExchange[] {mcp, oauth, proxy}) {
            assertThat(exchange.closedByKlave()).isTrue();
            assertThat(auditRow(exchange.auditId()).get("error").asText()).isEqualTo(text);
        }
    }

    @Test
    void aBrokenEscapeInTheQueryIsAnsweredWith400InsteadOfSilence() throws Exception {
        for (String target : new String[] {"/api/auth/methods?q=%zz", "/api/me?x=%", "/v1/ci/forge-actions/token?x=%zz"}) {
            String method = target.startsWith("/v1/") ? "POST" : "GET";
            RawExchange exchange = send(method + " " + target + " HTTP/1.1\r\nHost: k\r\nContent-Length: 0\r\n"
                    + "Connection: close\r\n\r\n");

            assertThat(exchange.text()).as(target).startsWith("HTTP/1.1 400 ").containsIgnoringCase(
                    "cache-control: no-store").endsWith("{\"error\":\"petición HTTP no válida\"}");
        }
    }

    @Test
    void aChunkSizeThatIsNotHexIs400AndTheConnectionClosed() throws Exception {
        RawExchange exchange = send("POST /api/auth/link HTTP/1.1\r\nHost: k\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n");

        assertThat(exchange.text()).startsWith("HTTP/1.1 400 ").endsWith("{\"error\":\"petición HTTP no válida\"}");
        assertThat(exchange.closedByKlave()).isTrue();
    }

    /**
     * Chunk lines Netty reads leniently (an overflowing size read as 5, a space before the size,
     * text or a NUL after it): refused with 400 and the connection closed, so the bytes a front end
     * would frame differently never become the next request — on the proxy and under {@code /api}.
     */
    @ParameterizedTest
    @ValueSource(strings = {"100000005", " 5", "5 junk", "5\u0000", "5 ", "0x5"})
    void chunkLinesOutsideTheGrammarAreRefusedAndWhatFollowsNeverRuns(String line) throws Exception {
        String smuggled = "GET " + CONFIGMAPS + "/chunk-smuggled HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer " + token
                + "\r\n\r\n";
        String body = line + "\r\nhello\r\n0\r\n\r\n" + smuggled;
        RawExchange proxied = send("POST " + CONFIGMAPS + " HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + body);
        RawExchange api = send("POST /api/auth/link HTTP/1.1\r\nHost: k\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + body);

        assertThat(proxied.text()).startsWith("HTTP/1.1 400 ");
        assertThat(proxied.responses()).isEqualTo(1);
        assertThat(proxied.closedByKlave()).isTrue();
        assertThat(JSON.readTree(proxied.body()).get("message").asText()).startsWith("petición HTTP no válida");
        assertThat(api.text()).startsWith("HTTP/1.1 400 ").endsWith("{\"error\":\"petición HTTP no válida\"}");
        assertThat(api.responses()).isEqualTo(1);
        assertThat(api.closedByKlave()).isTrue();
        assertThat(reached("chunk-smuggled")).isFalse();
    }

    @Test
    void aRequestLineThatCannotBeReadIsAnsweredLikeTheApiAndNeverCached() throws Exception {
        RawExchange tooLong = send("GET /api/" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: k\r\n\r\n");
        RawExchange spaced = send("GET /api/m e HTTP/1.1\r\nHost: k\r\n\r\n");

        assertThat(tooLong.text()).contains(" 414 ").containsIgnoringCase("cache-control: no-store")
                .endsWith("{\"error\":\"dirección de la petición demasiado larga\"}");
        assertThat(spaced.text()).contains(" 400 ").containsIgnoringCase("cache-control: no-store")
                .contains("{\"error\":\"petición HTTP no válida");
        assertThat(http.get("/healthz").headers().firstValue("Cache-Control")).contains("no-store");
    }

    @Test
    void chunkedAloneAndLengthAloneStillWorkAndKeepTheConnection() throws Exception {
        String get = "GET " + CONFIGMAPS + " HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer " + token + "\r\n\r\n";
        try (Socket socket = new Socket("127.0.0.1", klave.port())) {
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write(("POST " + CONFIGMAPS + "/kept-marker HTTP/1.1\r\nHost: k\r\nAuthorization: "
                    + "Bearer " + token + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "2\r\n{}\r\n0\r\n\r\n" + get).getBytes(StandardCharsets.ISO_8859_1));
            String text = readAvailable(socket.getInputStream());

            assertThat(Pattern.compile("HTTP/1\\.1 \\d{3} ").matcher(text).results().count()).as(text).isEqualTo(2);
            assertThat(text).contains("HTTP/1.1 200 OK");
        }
        assertThat(reached("kept-marker")).isTrue();
    }

    /** Reads until nothing arrives for the socket's timeout; the connection stays open. */
    private static String readAvailable(InputStream in) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, read);
            }
            throw new AssertionError("Klave closed a connection it should keep:\n" + received);
        } catch (SocketTimeoutException quiet) {
            return received.toString(StandardCharsets.UTF_8);
        }
    }

    /** The offer of a front end passing {@code Upgrade} through: served in HTTP/1.1, never switched. */
    @Test
    void anUpgradeToH2cIsDeclinedAndTheConnectionStaysHttp1() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", klave.port())) {
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write(("GET /api/auth/methods HTTP/1.1\r\nHost: k\r\n"
                    + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            String first = readAvailable(socket.getInputStream());

            assertThat(first).startsWith("HTTP/1.1 200 OK").doesNotContain("101 Switching Protocols");

            // Still HTTP/1.1: HTTP/2 spoken now is refused and the connection ends.
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            String second = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(second).startsWith("HTTP/1.1 505 ");
        }
    }

    @Test
    void anUpgradeToH2cOnTheProxyPathIsForwardedAsAPlainRequest() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", klave.port())) {
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write(("GET " + CONFIGMAPS + " HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer "
                    + token + "\r\nX-Marker: h2c-offer\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                    + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));

            assertThat(readAvailable(socket.getInputStream())).startsWith("HTTP/1.1 200 OK");
        }
        assertThat(cluster.requests()).filteredOn(request -> request.header("X-Marker").isPresent())
                .singleElement()
                .satisfies(request -> {
                    assertThat(request.header("Upgrade")).isEmpty();
                    assertThat(request.header("HTTP2-Settings")).isEmpty();
                });
    }

    @Test
    void http2PriorKnowledgeIsAnsweredInHttp1AndClosed() throws Exception {
        RawExchange exchange = send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

        assertThat(exchange.text()).startsWith("HTTP/1.1 505 ");
        assertThat(exchange.closedByKlave()).isTrue();
        assertThat(auditRow(exchange.auditId()).get("error").asText()).isEqualTo("versión de HTTP no admitida: HTTP/2.0");
    }
}
