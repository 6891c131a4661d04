package dev.klave.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.config.ExtraCertificates;
import dev.klave.testing.TestingBodies.Misbehaviour;
import dev.klave.testing.TestingOddProvider;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * One deadline for the whole call and a limit read as the body arrives, against a server that
 * sends its head at once and then trickles, never ends, or declares 700 MiB (the OIDC fake's key
 * endpoint playing each).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutboundHttpTest {
    private static final Duration DEADLINE = Duration.ofSeconds(1);
    private static final int LIMIT = 512 * 1024;
    /** Scheduling on a busy machine; far below what an unbounded wait would take. */
    private static final Duration MARGIN = Duration.ofMillis(1500);

    private TestingOddProvider server;
    private OutboundHttp http;

    @BeforeAll
    void start() {
        server = TestingOddProvider.start("/outbound", 1);
        http = OutboundHttp.over(ExtraCertificates.tlsContext(Optional.of(ExtraCertificates.read(server.caFile()))),
                DEADLINE, LIMIT);
    }

    @AfterAll
    void stop() {
        server.close();
    }

    @BeforeEach
    void wellBehaved() {
        server.misbehave("jwks", Optional.empty());
    }

    private HttpRequest keys() {
        return HttpRequest.newBuilder(URI.create(server.issuer() + "/jwks")).GET().build();
    }

    @Test
    void aWholeAnswerWithinBothBoundsIsReturned() throws Exception {
        Answer answer = http.send(keys());

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.text()).contains("\"keys\"");
    }

    @Test
    void aBodyThatTricklesEndsAtTheDeadlineAndTheConnectionIsLetGo() {
        server.misbehave("jwks", Optional.of(Misbehaviour.TRICKLE));
        long start = System.nanoTime();

        assertThatThrownBy(() -> http.send(keys())).isInstanceOfSatisfying(OutboundFailure.class,
                failure -> assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.DEADLINE))
                .hasMessage("no complete answer within 1 s");

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(DEADLINE.plus(MARGIN));
        assertThat(server.lastMisbehavingBytes(Duration.ofSeconds(10))).as("the server saw the connection end")
                .isLessThan(100);
    }

    @Test
    void aBodyWithoutEndStopsBeingReadJustPastTheLimit() {
        server.misbehave("jwks", Optional.of(Misbehaviour.ENDLESS));

        assertThatThrownBy(() -> http.send(keys())).isInstanceOfSatisfying(OutboundFailure.class,
                failure -> assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.TOO_LARGE))
                .hasMessage("answer larger than 524288 bytes");

        assertThat(server.lastMisbehavingBytes(Duration.ofSeconds(10)))
                .as("written before the reader let go: the limit and the sockets' buffers, not a GiB")
                .isGreaterThan(LIMIT).isLessThan(32L * 1024 * 1024);
    }

    @Test
    void aBodyDeclaredLargerThanTheLimitIsRefusedBeforeItIsRead() {
        server.misbehave("jwks", Optional.of(Misbehaviour.HUGE));
        long start = System.nanoTime();

        assertThatThrownBy(() -> http.send(keys())).isInstanceOfSatisfying(OutboundFailure.class,
                failure -> assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.TOO_LARGE));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(DEADLINE);
        assertThat(server.lastMisbehavingBytes(Duration.ofSeconds(10))).isLessThan(32L * 1024 * 1024);
    }

    @Test
    void aPortThatRefusesIsAFailureNamedByItsKind() throws Exception {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }

        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + closed + "/"))
                .build())).isInstanceOfSatisfying(OutboundFailure.class,
                failure -> assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.FAILED))
                .hasMessageContaining("ConnectException");
    }
}
