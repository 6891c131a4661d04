package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Administrators see how many OAuth clients are registered — in the installation checks too — and
 * purge those that never completed a login (the agent-safety review: registration could be filled
 * by anyone, and nothing but time emptied it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientPurgeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private String person;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        person = TestingPeople.signUp(klave, "ana", false);
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private JsonNode json(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @Test
    void administratorsCountAndPurgeClientsThatNeverSignedIn() throws Exception {
        for (int i = 0; i < 2; i++) {
            assertThat(http.send("POST", "/oauth/register", "{\"redirect_uris\": [\"http://localhost/cb\"]}",
                    "Content-Type", "application/json").statusCode()).isEqualTo(201);
        }
        assertThat(json(http.get("/api/agents/clients", "Cookie", admin)).path("registered").asInt()).isEqualTo(2);
        JsonNode check = null;
        for (JsonNode each : json(http.get("/api/installation/health", "Cookie", admin)).path("checks")) {
            check = each.path("name").asText().equals("oauth_clients") ? each : check;
        }
        assertThat(check).isNotNull();
        assertThat(check.path("state").asText()).isEqualTo("ok");
        assertThat(check.path("detail").asText()).isEqualTo("2 de 10000 clientes OAuth registrados");

        assertThat(http.send("POST", "/api/agents/clients/purge", "{}", "Cookie", person).statusCode()).isEqualTo(403);
        JsonNode purged = json(http.send("POST", "/api/agents/clients/purge", "{}", "Cookie", admin));

        assertThat(purged.path("deleted").asInt()).isEqualTo(2);
        assertThat(json(http.get("/api/agents/clients", "Cookie", admin)).path("registered").asInt()).isZero();
        assertThat(json(http.get("/api/control-events?type=oauth.clients_purge", "Cookie", admin)).path("events")
                .findValuesAsText("type")).containsExactly("oauth.clients_purge");
    }
}
