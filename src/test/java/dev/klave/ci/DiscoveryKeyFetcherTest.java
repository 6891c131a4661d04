package dev.klave.ci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.config.ExtraCertificates;
import dev.klave.outbound.OutboundHttp;
import dev.klave.testing.TestingBodies.Misbehaviour;
import dev.klave.testing.TestingOddProvider;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The CI issuer's discovery document and keys are read within a deadline and a size limit
 * (RELIABILITY.md): an issuer that trickles or never ends fails the fetch, and {@link IssuerKeys}
 * keeps the keys it had (or refuses the exchange when it has none). The OIDC fake plays the issuer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DiscoveryKeyFetcherTest {
    private static final Duration DEADLINE = Duration.ofSeconds(1);

    private TestingOddProvider issuer;
    private DiscoveryKeyFetcher fetcher;

    @BeforeAll
    void start() {
        issuer = TestingOddProvider.start("/actions", 1);
        fetcher = new DiscoveryKeyFetcher(URI.create(issuer.issuer()), OutboundHttp.over(ExtraCertificates.tlsContext(
                Optional.of(ExtraCertificates.read(issuer.caFile()))), DEADLINE, DiscoveryKeyFetcher.ANSWER_LIMIT));
    }

    @AfterAll
    void stop() {
        issuer.close();
    }

    @BeforeEach
    void wellBehaved() {
        issuer.misbehave("discovery", Optional.empty());
        issuer.misbehave("jwks", Optional.empty());
    }

    @Test
    void theKeysAreReadThroughTheDiscoveryDocument() throws Exception {
        assertThat(fetcher.fetch().getKeys()).hasSize(1);
    }

    @Test
    void aDiscoveryDocumentThatTricklesFailsTheFetchAtTheDeadline() {
        issuer.misbehave("discovery", Optional.of(Misbehaviour.TRICKLE));
        long start = System.nanoTime();

        assertThatThrownBy(fetcher::fetch).isInstanceOf(IOException.class)
                .hasMessageEndingWith("/.well-known/openid-configuration: no complete answer within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(DEADLINE.plusMillis(1500));
    }

    @Test
    void keysWithoutEndFailTheFetchAtTheLimit() {
        issuer.misbehave("jwks", Optional.of(Misbehaviour.ENDLESS));

        assertThatThrownBy(fetcher::fetch).isInstanceOf(IOException.class)
                .hasMessageEndingWith("/jwks: answer larger than 262144 bytes");
        assertThat(issuer.lastMisbehavingBytes(Duration.ofSeconds(10))).isLessThan(32L * 1024 * 1024);
    }
}
