package dev.klave.notify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.messages.Message;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A webhook destination is refused when an administrator adds it, by the rule every delivery
 * applies (issue 51, finding 13): loopback, private, link-local (cloud metadata), unique-local IPv6
 * and IPv4 addresses written in octal, hex or short forms — and a host name that resolves to one —
 * answer 400 with the reason, and nothing is stored; a private network named in
 * {@code SERVICE_WEBHOOK_ALLOW} is accepted, one next to it is not.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DestinationAddressesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestingKlave klave;
    private TestingHttp http;
    private String root;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings
                .with("SERVICE_WEBHOOK_ALLOW", "10.20.0.0/16"));
        http = klave.http();
        root = TestingPeople.signUp(klave, "root", true);
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private HttpResponse<String> create(String url) {
        return http.send("POST", "/api/notifications/destinations", "{\"name\":\"guardia\",\"format\":\"json\","
                + "\"url\":\"" + url + "\",\"kinds\":[\"access.waiting\"]}", "Cookie", root);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "https://127.0.0.1/hook", // loopback
        "https://localhost/hook", // a name: resolved now, to the loopback
        "https://169.254.169.254/latest/meta-data/", // a cloud's metadata
        "https://10.0.0.1/hook", // private, outside SERVICE_WEBHOOK_ALLOW
        "https://10.21.0.5/hook", // next to the allowed 10.20.0.0/16, not in it
        "https://192.168.1.10:8443/hook",
        "https://172.16.0.1/hook",
        "https://[fc00::1]/hook", // unique local IPv6
        "https://[fd12:3456::1]/hook",
        "https://[::1]/hook",
        "https://[::ffff:10.0.0.1]/hook", // IPv4-mapped: where it connects
        "https://0x7f000001/hook", // 127.0.0.1 to inet_aton, in hex
        "https://017700000001/hook", // in octal
        "https://2130706433/hook", // as one number
        "https://127.1/hook", // short form
        "https://0177.0.0.1/hook"
    })
    void anAddressNoDeliveryWouldReachIsRefusedWhenAdded(String url) throws Exception {
        HttpResponse<String> refused = create(url);

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        JsonNode body = JSON.readTree(refused.body());
        String host = url.substring("https://".length(), url.indexOf('/', "https://".length()))
                .replaceFirst(":[0-9]+$", "");
        assertThat(body.get("error").asText()).as("the reason, in Spanish")
                .isEqualTo(Message.NOTIFY_ADDRESS_REFUSED.text(host))
                .contains("no es una dirección pública").contains("SERVICE_WEBHOOK_ALLOW");
        assertThat(http.get("/api/notifications/destinations", "Cookie", root).body())
                .as("nothing stored").doesNotContain("guardia");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://10.20.0.5/hook", "https://10.20.255.254:8443/hook"})
    void aPrivateNetworkNamedInServiceWebhookAllowIsAccepted(String url) throws Exception {
        HttpResponse<String> created = create(url);

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = JSON.readTree(created.body()).get("destination").get("id").asText();
        assertThat(http.send("DELETE", "/api/notifications/destinations/" + id, null, "Cookie", root).statusCode())
                .isEqualTo(204);
    }
}
