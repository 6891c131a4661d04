package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.oauth.client.ClientMetadataDocuments;
import dev.klave.oauth.client.MetadataRefused;
import dev.klave.oauth.client.MetadataRefused.Reason;
import dev.klave.oauth.client.PublishedClient;
import dev.klave.outbound.AddressPolicy;
import dev.klave.outbound.Resolver;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingDocumentServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fetching a client's document from a real HTTPS server on loopback (spec 3 §4, §8). The server's
 * certificate is for {@code client.example}, which a fixed resolver maps to 127.0.0.1, and the
 * policy here also permits loopback — the only way to reach a local server; the production
 * policy's refusals are in {@link PublicOnlyFetchTest}.
 */
@Timeout(30)
class ClientMetadataDocumentsTest {
    /** Long enough for a first TLS handshake on a busy machine; the time-out test uses its own, shorter one. */
    private static final Duration DEADLINE = Duration.ofSeconds(3);
    private static final Duration SHORT_DEADLINE = Duration.ofMillis(500);
    private static final AddressPolicy LOOPBACK_TOO = address -> address.isLoopbackAddress()
            || AddressPolicy.publicOnly().permits(address);

    private final TestingClock clock = new TestingClock();
    private final AtomicInteger lookups = new AtomicInteger();
    private TestingDocumentServer server;
    private ClientMetadataDocuments documents;
    private Resolver resolver;
    private String base;

    @BeforeEach
    void start() {
        server = TestingDocumentServer.start("client.example");
        resolver = host -> {
            lookups.incrementAndGet();
            if (!host.equals("client.example") && !host.equals("other.example")) {
                throw new UnknownHostException(host);
            }
            return List.of(InetAddress.getLoopbackAddress());
        };
        documents = new ClientMetadataDocuments(server.clientTls(), LOOPBACK_TOO, resolver, DEADLINE, clock);
        base = "https://client.example:" + server.port();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String document(String clientId) {
        return "{\"client_id\":\"" + clientId + "\",\"client_name\":\"Example agent\","
                + "\"redirect_uris\":[\"http://127.0.0.1/callback\"],\"token_endpoint_auth_method\":\"none\"}";
    }

    private Reason refusal(String clientId) {
        try {
            documents.fetch(clientId);
        } catch (MetadataRefused refused) {
            return refused.reason();
        }
        throw new AssertionError("fetched: " + clientId);
    }

    @Test
    void aGoodDocumentIsReadAndKeptForAnHour() throws MetadataRefused {
        String clientId = base + "/client.json";
        server.answer("/client.json", TestingDocumentServer.document("application/json", document(clientId)));

        PublishedClient metadata = documents.fetch(URI.create(clientId));

        assertThat(metadata.clientId()).hasToString(clientId);
        assertThat(metadata.clientName()).contains("Example agent");
        assertThat(metadata.redirectUris()).containsExactly("http://127.0.0.1/callback");
        assertThat(server.heads()).singleElement().satisfies(head -> assertThat(head)
                .startsWith("GET /client.json HTTP/1.1\r\n")
                .contains("\r\nHost: client.example:" + server.port() + "\r\n", "\r\nConnection: close\r\n",
                        "\r\nAccept: application/json\r\n"));

        clock.advance(Duration.ofMinutes(59));
        assertThat(documents.fetch(clientId)).isEqualTo(metadata);
        assertThat(server.connections()).as("kept: no second request within the hour").isEqualTo(1);

        clock.advance(Duration.ofMinutes(2));
        assertThat(documents.fetch(clientId)).isEqualTo(metadata);
        assertThat(server.connections()).as("fetched again after the hour").isEqualTo(2);
    }

    @Test
    void chunkedAndCloseDelimitedDocumentsAreReadToo() throws MetadataRefused {
        String chunked = base + "/chunked.json";
        byte[] body = document(chunked).getBytes(StandardCharsets.UTF_8);
        server.answer("/chunked.json", TestingDocumentServer.raw("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(body.length) + "\r\n"
                + new String(body, StandardCharsets.ISO_8859_1) + "\r\n0\r\n\r\n"));
        String closed = base + "/closed.json";
        server.answer("/closed.json", TestingDocumentServer.raw("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n"
                + document(closed)));

        assertThat(documents.fetch(chunked).clientName()).contains("Example agent");
        assertThat(documents.fetch(closed).clientName()).contains("Example agent");
    }

    @Test
    void aFailedFetchIsNotKept() throws MetadataRefused {
        String clientId = base + "/client.json";
        server.answer("/client.json", TestingDocumentServer.document("application/json", "{}"));
        assertThat(refusal(clientId)).isEqualTo(Reason.CLIENT_ID_MISMATCH);

        server.answer("/client.json", TestingDocumentServer.document("application/json", document(clientId)));

        assertThat(documents.fetch(clientId).clientId()).hasToString(clientId);
        assertThat(server.connections()).isEqualTo(2);
    }

    @Test
    void aDocumentNamingAnotherClientIsRefused() {
        server.answer("/client.json", TestingDocumentServer.document("application/json",
                document(base + "/someone-else.json")));

        assertThat(refusal(base + "/client.json")).isEqualTo(Reason.CLIENT_ID_MISMATCH);
    }

    @Test
    void aRedirectIsRefusedAndNotFollowed() {
        String elsewhere = base + "/elsewhere.json";
        server.answer("/elsewhere.json", TestingDocumentServer.document("application/json", document(elsewhere)));
        server.answer("/client.json", TestingDocumentServer.raw("HTTP/1.1 302 Found\r\nLocation: " + elsewhere
                + "\r\nContent-Length: 0\r\n\r\n"));

        assertThat(refusal(base + "/client.json")).isEqualTo(Reason.REDIRECT);
        assertThat(server.requestLines()).containsExactly("GET /client.json HTTP/1.1");
    }

    @Test
    void anyOtherStatusIsRefusedWithIt() {
        try {
            documents.fetch(base + "/missing.json");
        } catch (MetadataRefused refused) {
            assertThat(refused.reason()).isEqualTo(Reason.HTTP_STATUS);
            assertThat(refused.getMessage()).isEqualTo("el servidor del documento del cliente respondió con el estado HTTP 404");
            return;
        }
        throw new AssertionError("fetched");
    }

    @Test
    void aBodyStreamedPastTheLimitIsRefusedWithoutReadingIt() {
        AtomicInteger written = new AtomicInteger();
        server.answer("/client.json", out -> {
            out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] block = new byte[64 * 1024];
            for (int i = 0; i < 160; i++) { // 10 MiB
                out.write(block);
                written.addAndGet(block.length);
            }
        });
        long start = System.nanoTime();

        assertThat(refusal(base + "/client.json")).isEqualTo(Reason.TOO_LARGE);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(DEADLINE);
        assertThat(written.get()).as("the server could not send it all").isLessThan(10 * 1024 * 1024);
    }

    @Test
    void aDeclaredLengthPastTheLimitIsRefusedBeforeTheBody() {
        server.answer("/client.json", TestingDocumentServer.raw("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Content-Length: 10485760\r\n\r\n{"));

        assertThat(refusal(base + "/client.json")).isEqualTo(Reason.TOO_LARGE);
    }

    @Test
    void aServerThatNeverAnswersIsLeftAtTheDeadline() {
        server.answer("/client.json", server.silent());
        documents = new ClientMetadataDocuments(server.clientTls(), LOOPBACK_TOO, resolver, SHORT_DEADLINE, clock);
        long start = System.nanoTime();

        try {
            documents.fetch(base + "/client.json");
            throw new AssertionError("fetched");
        } catch (MetadataRefused refused) {
            assertThat(refused.reason()).isEqualTo(Reason.TIMEOUT);
            assertThat(refused.getMessage()).isEqualTo("el documento del cliente no llegó en 500 ms");
        }

        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).isGreaterThanOrEqualTo(SHORT_DEADLINE).isLessThan(SHORT_DEADLINE.plusSeconds(1));
    }

    @Test
    void theStandardDeadlineIsFiveSeconds() {
        assertThat(ClientMetadataDocuments.standard(server.clientTls(), clock).deadline()).isEqualTo(Duration.ofSeconds(5));
        assertThat(ClientMetadataDocuments.SIZE_LIMIT).isEqualTo(64 * 1024);
        assertThat(ClientMetadataDocuments.REUSE).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void aBodyThatIsNotJsonIsRefused() {
        server.answer("/client.json", TestingDocumentServer.document("text/html", "<html>hello</html>"));
        server.answer("/bad.json", TestingDocumentServer.document("application/json", "<html>hello</html>"));

        assertThat(refusal(base + "/client.json")).isEqualTo(Reason.NOT_JSON);
        assertThat(refusal(base + "/bad.json")).isEqualTo(Reason.NOT_JSON);
    }

    @Test
    void aCertificateForAnotherNameIsRefused() {
        // other.example resolves to the same server, whose certificate names client.example only.
        server.answer("/client.json", TestingDocumentServer.document("application/json",
                document("https://other.example:" + server.port() + "/client.json")));

        assertThat(refusal("https://other.example:" + server.port() + "/client.json")).isEqualTo(Reason.TLS);
        assertThat(server.requestLines()).as("no request sent").isEmpty();
    }

    @Test
    void plainHttpIsRefusedBeforeAnyLookUpOrConnection() {
        assertThat(refusal("http://client.example:" + server.port() + "/client.json")).isEqualTo(Reason.NOT_HTTPS);

        assertThat(lookups.get()).isZero();
        assertThat(server.connections()).isZero();
    }

    @Test
    void anUnknownNameIsUnreachable() {
        assertThat(refusal("https://nowhere.example/client.json")).isEqualTo(Reason.UNREACHABLE);
    }
}
