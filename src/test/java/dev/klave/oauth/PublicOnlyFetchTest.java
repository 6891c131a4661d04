package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.oauth.client.ClientMetadataDocuments;
import dev.klave.oauth.client.MetadataRefused;
import dev.klave.oauth.client.MetadataRefused.Reason;
import dev.klave.outbound.AddressPolicy;
import dev.klave.outbound.Resolver;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingDocumentServer;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The production policy (spec 3 §4: "from public addresses"; issue 31: checked at connect time)
 * against a real server on 127.0.0.1 that would answer: every non-public address is refused
 * before a connection is opened, whether written as a literal or reached through a name.
 */
@Timeout(30)
class PublicOnlyFetchTest {
    /** A refusal takes no network time; anything near the deadline would mean an attempt was made. */
    private static final Duration DEADLINE = Duration.ofSeconds(4);

    private final TestingClock clock = new TestingClock();
    private TestingDocumentServer server;

    @BeforeEach
    void start() {
        server = TestingDocumentServer.start("localhost", "client.example");
        server.answer("/client.json", TestingDocumentServer.document("application/json", "{}"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Reason refusal(ClientMetadataDocuments documents, String clientId) {
        long start = System.nanoTime();
        try {
            documents.fetch(clientId);
        } catch (MetadataRefused refused) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
            return refused.reason();
        }
        throw new AssertionError("fetched: " + clientId);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "localhost", "127.0.0.2", "10.0.0.1",
        "192.168.1.1", "172.16.0.1", "169.254.169.254", "100.64.0.1", "[fe80::1]", "[fc00::1]", "0.0.0.0", "[::]",
        "224.0.0.1", "255.255.255.255", "198.18.0.1", "192.0.0.1", "[::ffff:169.254.169.254]"})
    void theProductionPolicyRefusesEveryNonPublicAddressWithoutConnecting(String host) {
        ClientMetadataDocuments documents = new ClientMetadataDocuments(server.clientTls(), AddressPolicy.publicOnly(),
                Resolver.system(), DEADLINE, clock);

        assertThat(refusal(documents, "https://" + host + ":" + server.port() + "/client.json"))
                .isEqualTo(Reason.PRIVATE_ADDRESS);
        assertThat(server.connections()).isZero();
    }

    @Test
    void theStandardFetcherRefusesLoopbackThoughAServerAnswersThere() {
        ClientMetadataDocuments documents = ClientMetadataDocuments.standard(server.clientTls(), clock);

        assertThat(refusal(documents, "https://127.0.0.1:" + server.port() + "/client.json"))
                .isEqualTo(Reason.PRIVATE_ADDRESS);
        assertThat(refusal(documents, "https://localhost:" + server.port() + "/client.json"))
                .isEqualTo(Reason.PRIVATE_ADDRESS);
        assertThat(server.connections()).isZero();
    }

    @Test
    void aNameWithOnePublicAndOnePrivateAddressIsRefused() {
        Resolver mixed = host -> List.of(InetAddress.ofLiteral("8.8.8.8"), InetAddress.getLoopbackAddress());
        ClientMetadataDocuments documents = new ClientMetadataDocuments(server.clientTls(), AddressPolicy.publicOnly(),
                mixed, DEADLINE, clock);

        assertThat(refusal(documents, "https://client.example:" + server.port() + "/client.json"))
                .isEqualTo(Reason.PRIVATE_ADDRESS);
        assertThat(server.connections()).isZero();
    }

    @Test
    void theNameIsResolvedOnceAndTheCheckedAddressIsTheOneConnectedTo() throws MetadataRefused {
        // A rebinding resolver: loopback (permitted by this test's policy) first, then 10.0.0.1.
        // Were the name looked up again to connect, the fetch would go to 10.0.0.1 and time out.
        AtomicInteger lookups = new AtomicInteger();
        Resolver rebinding = host -> List.of(lookups.getAndIncrement() == 0 ? InetAddress.getLoopbackAddress()
                : InetAddress.ofLiteral("10.0.0.1"));
        AddressPolicy loopbackOnly = InetAddress::isLoopbackAddress;
        ClientMetadataDocuments documents = new ClientMetadataDocuments(server.clientTls(), loopbackOnly, rebinding,
                DEADLINE, clock);
        String clientId = "https://client.example:" + server.port() + "/client.json";
        server.answer("/client.json", TestingDocumentServer.document("application/json",
                "{\"client_id\":\"" + clientId + "\",\"redirect_uris\":[\"http://localhost/cb\"]}"));

        assertThat(documents.fetch(clientId).redirectUris()).containsExactly("http://localhost/cb");
        assertThat(lookups.get()).isEqualTo(1);
        assertThat(server.connections()).isEqualTo(1);
    }

    @Test
    void aServerThatAcceptsAndNeverSpeaksTlsIsLeftAtTheDeadline() {
        try (TestingDocumentServer mute = TestingDocumentServer.mute()) {
            ClientMetadataDocuments documents = new ClientMetadataDocuments(server.clientTls(),
                    InetAddress::isLoopbackAddress, Resolver.system(), Duration.ofMillis(500), clock);
            long start = System.nanoTime();

            try {
                documents.fetch("https://localhost:" + mute.port() + "/client.json");
                throw new AssertionError("fetched");
            } catch (MetadataRefused refused) {
                assertThat(refused.reason()).isEqualTo(Reason.TIMEOUT);
            }

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
            assertThat(mute.connections()).isEqualTo(1);
        }
    }
}
