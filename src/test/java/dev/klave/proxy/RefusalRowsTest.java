package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.Eventually;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 51 §16: the proxy's own refusal of a request whose path it could read — "no tiene permisos
 * activos" — names its resource and namespace in its audit row and is listed by default, so that a
 * decider reading a person's activity sees the refusals; only authentication failures (an unknown
 * token) stay rows without a resource, hidden like discovery (spec 1 §2 "Audit row").
 */
class RefusalRowsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRefusalOfWhatIsAskedNamesItAndIsListedWhileAnAuthenticationFailureIsHidden() throws Exception {
        try (RecordingStand stand = RecordingStand.start()) {
            stand.klave().http().send("POST", "/api/clusters", "{\"id\":\"prod-2\",\"name\":\"Otro\"}", "Cookie",
                    stand.admin());
            HttpResponse<String> refused = stand.klave().http().get("/clusters/prod-2/api/v1/namespaces/team-b/pods",
                    "Authorization", "Bearer " + stand.evaToken());
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
            assertThat(refused.body()).contains("eva no tiene permisos activos en el cluster prod-2");
            String unknown = stand.klave().http().get("/clusters/prod-2/api/v1/namespaces/team-b/secrets",
                    "Authorization", "Bearer klt_" + "A".repeat(43)).headers().firstValue("Audit-ID").orElseThrow();

            JsonNode row = Eventually.value("the refusal listed", Duration.ofSeconds(10), () -> {
                for (JsonNode event : JSON.readTree(stand.klave().http().get("/api/audit?cluster=prod-2", "Cookie",
                        stand.admin()).body()).get("events")) {
                    if (event.get("status").asInt() == 403) {
                        return java.util.Optional.of(event);
                    }
                }
                return java.util.Optional.empty();
            });
            assertThat(row.get("resource").asText()).isEqualTo("pods");
            assertThat(row.get("namespace").asText()).isEqualTo("team-b");
            assertThat(row.get("subject").asText()).contains("eva");
            String listed = stand.klave().http().get("/api/audit?cluster=prod-2", "Cookie", stand.admin()).body();
            assertThat(listed).as("an unknown token's row is hidden by default").doesNotContain(unknown);
            assertThat(stand.klave().http().get("/api/audit?cluster=prod-2&include_discovery=true", "Cookie",
                    stand.admin()).body()).contains(unknown);
        }
    }
}
