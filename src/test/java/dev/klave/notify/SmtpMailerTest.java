package dev.klave.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.config.SmtpSettings;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/**
 * A mail server that never answers holds an e-mail for at most the mailer's deadline, whatever the
 * steps' timeouts (issue 51, findings 4 and 19): what lets the deliverer claim a row for a short,
 * fixed time.
 */
class SmtpMailerTest {
    private static final Duration DEADLINE = Duration.ofSeconds(1);

    @Test
    void aServerThatNeverGreetsIsCutOffAtTheDeadline() throws Exception {
        // Connections are accepted by the system's backlog; nothing is ever written to them.
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            SmtpMailer mailer = new SmtpMailer(SmtpSettings.parse("smtp://127.0.0.1:" + server.getLocalPort()
                    + "?tls=none", "klave@example.com"), SSLContext.getDefault(), DEADLINE);

            long started = System.nanoTime();
            assertThatThrownBy(() -> mailer.send("eva@example.com", "Klave: prueba", "texto"))
                    .hasMessageContaining("within 1 s");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE.plusMillis(900));
        }
        assertThat(SmtpMailer.TIMEOUT).as("a step alone would have waited longer").isGreaterThan(DEADLINE);
        assertThat(Deliverer.CLAIM).as("a claim outlasts the longest attempt")
                .isGreaterThan(SmtpMailer.DEADLINE).isGreaterThan(WebhookSender.DEADLINE);
    }
}
