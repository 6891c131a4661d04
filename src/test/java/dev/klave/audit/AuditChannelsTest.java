package dev.klave.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.store.JdbiAuditStore;
import dev.klave.testing.TestingAuditRows;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code GET /api/audit} says how each request came (spec 3 "Tool rules" 3: a tool's request is a
 * row carrying its tool and session) and filters by it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditChannelsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant AT = Instant.parse("2026-11-25T09:00:00Z");
    private static final String SESSION = "ses_0b3c2a8e";

    private TestingKlave klave;
    private String admin;
    private final String proxied = UUID.randomUUID().toString();
    private final String listed = UUID.randomUUID().toString();
    private final String listedByBot = UUID.randomUUID().toString();
    private final String logs = UUID.randomUUID().toString();

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        admin = TestingPeople.signUp(klave, "root", true);
        List<AuditRow> rows = new ArrayList<>();
        rows.add(row(proxied, 0, Channel.PROXY));
        rows.add(row(listed, 1, Channel.tool("list_resources", SESSION)));
        rows.add(row(listedByBot, 2, Channel.tool("list_resources")));
        rows.add(row(logs, 3, Channel.tool("get_logs", SESSION)));
        new JdbiAuditStore(klave.klave().database()).write(rows, List.of());
    }

    private static AuditRow row(String id, int second, Channel channel) {
        return TestingAuditRows.ended(id, AT.plusSeconds(second), "prod-1", TestingAuditRows.through(
                TestingAuditRows.request("list", "team-a", "pods", "/api/v1/namespaces/team-a/pods"), channel), 200);
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    @Test
    void rowsSayHowTheyCame() throws Exception {
        JsonNode proxy = JSON.readTree(klave.http().get("/api/audit/" + proxied, "Cookie", admin).body());
        JsonNode tool = JSON.readTree(klave.http().get("/api/audit/" + listed, "Cookie", admin).body());
        JsonNode bot = JSON.readTree(klave.http().get("/api/audit/" + listedByBot, "Cookie", admin).body());

        assertThat(proxy.get("channel").asText()).isEqualTo("proxy");
        assertThat(proxy.get("tool").isNull()).isTrue();
        assertThat(proxy.get("session").isNull()).isTrue();
        assertThat(tool.get("channel").asText()).isEqualTo("tool");
        assertThat(tool.get("tool").asText()).isEqualTo("list_resources");
        assertThat(tool.get("session").asText()).isEqualTo(SESSION);
        assertThat(bot.get("session").isNull()).as("a bot's credential has no session").isTrue();
        JsonNode listing = JSON.readTree(klave.http().get("/api/audit", "Cookie", admin).body());
        assertThat(listing.get("events").get(0).get("id").asText()).isEqualTo(logs);
        assertThat(listing.get("events").get(0).get("tool").asText()).isEqualTo("get_logs");
        assertThat(listing.get("events").get(0).get("session").asText()).isEqualTo(SESSION);
    }

    @Test
    void theListingFiltersByChannelToolAndSession() throws Exception {
        assertThat(ids("channel=proxy")).containsExactly(proxied);
        assertThat(ids("channel=tool")).containsExactly(logs, listedByBot, listed);
        assertThat(ids("tool=list_resources")).containsExactly(listedByBot, listed);
        assertThat(ids("session=" + SESSION)).containsExactly(logs, listed);
        assertThat(ids("channel=tool&tool=list_resources&session=" + SESSION)).containsExactly(listed);
        assertThat(ids("channel=proxy&tool=get_logs")).isEmpty();
        assertThat(JSON.readTree(klave.http().get("/api/audit?channel=tool", "Cookie", admin).body())
                .get("total").asLong()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mcp", "Proxy", "TOOL", "", "proxy,tool"})
    void anyOtherChannelIs400InSpanish(String channel) throws Exception {
        HttpResponse<String> answer = klave.http().get("/api/audit?channel="
                + java.net.URLEncoder.encode(channel, java.nio.charset.StandardCharsets.UTF_8), "Cookie", admin);

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(answer.body()).get("error").asText()).isEqualTo("channel no válido: usa proxy o tool");
        assertThat(klave.http().get("/api/audit/export?channel=mcp", "Cookie", admin).statusCode()).isEqualTo(400);
    }

    private List<String> ids(String query) throws Exception {
        HttpResponse<String> answer = klave.http().get("/api/audit?" + query, "Cookie", admin);
        assertThat(answer.statusCode()).as(query).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        JSON.readTree(answer.body()).get("events").forEach(row -> ids.add(row.get("id").asText()));
        return ids;
    }
}
