package dev.klave.ci;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.TestingActionsIssuer;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The exchange fails closed when the issuer's keys cannot be had (spec 1 §7: 503). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CiExchangeWithoutIssuerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestingClock clock = new TestingClock(Instant.now());
    private TestingActionsIssuer issuer;
    private TestingKlave klave;

    @BeforeAll
    void start() throws Exception {
        issuer = TestingActionsIssuer.start(clock);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        klave = TestingKlave.start(clock, settings -> settings
                .with("SERVICE_CI_ISSUER", "http://127.0.0.1:" + closedPort + "/actions"));
    }

    @AfterAll
    void stop() {
        klave.close();
        issuer.close();
    }

    @Test
    void wellFormedTokenIsRefusedWith503WhenNoKeyCanBeFetched() throws Exception {
        String audience = klave.klave().settings().baseUrl().toString();
        var claims = issuer.claims(audience);
        claims.put("iss", klave.klave().settings().ci().issuer().toString());

        HttpResponse<String> refused = klave.http().send("POST", "/v1/ci/forge-actions/token",
                JSON.createObjectNode().put("token", issuer.sign(claims)).toString());

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(JSON.readTree(refused.body()).get("error").asText())
                .isEqualTo("el intercambio de CI no está configurado");
    }

    @Test
    void malformedTokenIsStill401WithoutAskingTheIssuer() throws Exception {
        HttpResponse<String> refused = klave.http().send("POST", "/v1/ci/forge-actions/token", "{\"token\":\"x.y\"}");

        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(refused.body()).get("error").asText()).isEqualTo("token no válido");
    }
}
