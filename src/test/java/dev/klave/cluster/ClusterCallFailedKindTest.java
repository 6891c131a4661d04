package dev.klave.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.cluster.ClusterCallFailed.Kind;
import dev.klave.kube.ClusterPath;
import dev.klave.simulator.ClusterSimulator;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.URI;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** Spec 1 §7's four failures to reach a cluster, told apart by their cause. */
class ClusterCallFailedKindTest {

    @Test
    void aServerClosingItsPortIsUnreachableNeverAWrongCertificate() throws Exception {
        // The JDK client against a server whose port closes between two calls: most connections are
        // refused, some are reset in the TLS handshake the server's accept had begun. Before the
        // rule for cut handshakes, about one in twenty came back as "the certificate does not match".
        try (ClusterSimulator cluster = ClusterSimulator.builder().start()) {
            X509Certificate ca = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
                    new ByteArrayInputStream(cluster.caCertificatePem().getBytes(StandardCharsets.US_ASCII)));
            KubernetesApi api = new KubernetesApi(URI.create(cluster.url()), List.of(ca), cluster.adminToken());
            Map<Kind, Integer> seen = new TreeMap<>();
            for (int i = 0; i < 150; i++) {
                cluster.healthy();
                assertThat(api.get(ClusterPath.of("version"))).isPresent();
                cluster.down();
                try {
                    api.get(ClusterPath.of("version"));
                    seen.merge(Kind.REFUSED_BY_CLUSTER, 1, Integer::sum);
                } catch (ClusterCallFailed e) {
                    seen.merge(e.kind(), 1, Integer::sum);
                }
            }
            assertThat(seen).containsOnlyKeys(Kind.UNREACHABLE);
        }
    }

    @Test
    void aHandshakeTheServerCutIsUnreachable() {
        // The JDK's HttpClient: a reset under the handshake's exception, or its own words for an end of stream.
        assertThat(Kind.of(handshake("Remote host terminated the handshake", new SocketException("Connection reset"))))
                .isEqualTo(Kind.UNREACHABLE);
        assertThat(Kind.of(new SSLHandshakeException("Remote host terminated the handshake"))).isEqualTo(Kind.UNREACHABLE);
        assertThat(Kind.of(new SSLHandshakeException("Remote host closed the channel"))).isEqualTo(Kind.UNREACHABLE);
        assertThat(Kind.of(handshake("some other wording", new EOFException("SSL peer shut down incorrectly"))))
                .isEqualTo(Kind.UNREACHABLE);
        // Netty's SslHandler when the channel closes mid-handshake.
        assertThat(Kind.of(handshake("Connection closed while SSL/TLS handshake was in progress",
                new ClosedChannelException()))).isEqualTo(Kind.UNREACHABLE);
        assertThat(Kind.of(new ConnectException("Connection refused"))).isEqualTo(Kind.UNREACHABLE);
    }

    @Test
    void aCertificateFromAnotherCaOrNoTlsAtAllIsACertificateFailure() {
        SSLHandshakeException untrusted = handshake("PKIX path building failed",
                new CertificateException("unable to find valid certification path to requested target"));
        assertThat(Kind.of(untrusted)).isEqualTo(Kind.CERTIFICATE);
        // Even when the connection then closes: the certificate was judged and refused.
        SSLHandshakeException judgedThenClosed = handshake("Remote host terminated the handshake",
                new CertificateException("no subject alternative names"));
        assertThat(Kind.of(judgedThenClosed)).isEqualTo(Kind.CERTIFICATE);
        // A server speaking plain HTTP: not a cut, a TLS failure.
        assertThat(Kind.of(new SSLException("Unsupported or unrecognized SSL message"))).isEqualTo(Kind.CERTIFICATE);
        assertThat(Kind.of(handshake("Received fatal alert: handshake_failure", null))).isEqualTo(Kind.CERTIFICATE);
    }

    @Test
    void aResetAfterTheHandshakeIsABrokenConnection() {
        assertThat(Kind.of(new SocketException("Connection reset"))).isEqualTo(Kind.CONNECTION);
        assertThat(Kind.of(new EOFException("EOF reached while reading"))).isEqualTo(Kind.CONNECTION);
    }

    private static SSLHandshakeException handshake(String message, Throwable cause) {
        SSLHandshakeException e = new SSLHandshakeException(message);
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }
}
