package dev.klave.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.store.JdbiAuditStore;
import dev.klave.testing.TestingAuditRows;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code GET /api/audit} at scale (issue 32): a cursor pages through every row once, however many
 * are written meanwhile; spec 1's {@code page} still works; the total stops counting past 10 000
 * and says so; the status filter; a parameter the listing does not know is 400, not ignored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditListingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant AT = Instant.parse("2026-11-25T09:00:00Z");

    private TestingKlave klave;
    private String admin;
    private final AuditIds ids = new AuditIds(new TestingClock());

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        admin = TestingPeople.signUp(klave, "root", true);
        List<AuditRow> rows = new ArrayList<>();
        AuditRow.Request configmaps = TestingAuditRows.request("list", "team-a", "configmaps",
                "/api/v1/namespaces/team-a/configmaps");
        for (int i = 0; i < 10_050; i++) {
            // 130 rows on cluster "small", a few of them forbidden; the rest on "big".
            boolean small = i < 130;
            rows.add(TestingAuditRows.opened(ids.next(), AT.plusMillis(i / 4), small ? "small" : "big", configmaps)
                    .ended(TestingAuditRows.answered(small && i % 10 == 0 ? 403 : 200, AT)));
        }
        new JdbiAuditStore(klave.klave().database()).write(rows, List.of());
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private JsonNode list(String query) throws Exception {
        HttpResponse<String> answer = klave.http().get("/api/audit?" + query, "Cookie", admin);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return JSON.readTree(answer.body());
    }

    @Test
    void theCursorPagesThroughEveryRowOnceNewestFirst() throws Exception {
        List<String> seen = new ArrayList<>();
        JsonNode page = list("cluster=small");
        int pages = 1;
        while (true) {
            page.get("events").forEach(row -> seen.add(row.get("id").asText()));
            if (!page.get("has_more").asBoolean()) {
                assertThat(page.get("next_cursor").isNull()).isTrue();
                break;
            }
            page = list("cluster=small&cursor=" + URLEncoder.encode(page.get("next_cursor").asText(),
                    StandardCharsets.UTF_8));
            pages++;
        }

        assertThat(pages).isEqualTo(3);
        assertThat(seen).hasSize(130);
        assertThat(new HashSet<>(seen)).hasSize(130);
        List<String> secondByPage = new ArrayList<>();
        list("cluster=small&page=2").get("events").forEach(row -> secondByPage.add(row.get("id").asText()));
        assertThat(secondByPage).containsExactlyElementsOf(seen.subList(50, 100));
    }

    @Test
    void theTotalStopsCountingPastTenThousandAndSaysSo() throws Exception {
        JsonNode all = list("");
        JsonNode small = list("cluster=small");

        assertThat(all.get("total").asLong()).isEqualTo(10_000);
        assertThat(all.get("total_capped").asBoolean()).isTrue();
        assertThat(small.get("total").asLong()).isEqualTo(130);
        assertThat(small.get("total_capped").asBoolean()).isFalse();
    }

    @Test
    void theStatusFilterKeepsTheRequestsAnsweredSo() throws Exception {
        JsonNode forbidden = list("cluster=small&status=403");

        assertThat(forbidden.get("total").asLong()).isEqualTo(13);
        Set<Integer> statuses = new HashSet<>();
        forbidden.get("events").forEach(row -> statuses.add(row.get("status").asInt()));
        assertThat(statuses).containsExactly(403);
    }

    /** What a real deployment showed: {@code subject=bob} silently found nothing. */
    @Test
    void theSubjectFilterTakesALoginOrAnIdAndSaysWhenItNamesNobody() throws Exception {
        String rootId = JSON.readTree(klave.http().get("/api/me", "Cookie", admin).body()).get("id").asText();
        AuditRow.Actor root = new AuditRow.Actor(Optional.of(rootId), Optional.of("root"), Optional.of("cred-root"),
                Optional.empty());
        new JdbiAuditStore(klave.klave().database()).write(List.of(AuditRow.opened(ids.next(), AT, root, "own",
                TestingAuditRows.request("get", "team-a", "pods", "web", "/api/v1/namespaces/team-a/pods/web"))
                .ended(TestingAuditRows.answered(200, AT))), List.of());

        JsonNode byLogin = list("subject=root");
        JsonNode byId = list("subject=" + rootId);
        HttpResponse<String> nobody = klave.http().get("/api/audit?subject=nobody", "Cookie", admin);

        assertThat(byLogin.get("events").findValuesAsText("credential")).containsExactly("cred-root");
        assertThat(byId.get("events").findValuesAsText("credential")).containsExactly("cred-root");
        assertThat(nobody.statusCode()).isEqualTo(404);
    }

    @Test
    void anAuditIdThatIsNotACanonicalUuidNamesNoRowAndACursorCarryingOneIs400() throws Exception {
        // Both databases keep the id as its 16 bytes (V37): other text must not reach the column.
        String stored = list("cluster=small").get("events").get(0).get("id").asText();
        String cursorWithDashes = java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString("1764061200000:------------------------------------".getBytes(StandardCharsets.US_ASCII));

        for (String id : List.of("not-an-audit-id", stored.toUpperCase(java.util.Locale.ROOT), stored + "0",
                "%27%20OR%201=1--")) {
            HttpResponse<String> row = klave.http().get("/api/audit/" + id, "Cookie", admin);
            assertThat(row.statusCode()).as(id).isEqualTo(404);
            assertThat(row.body()).as(id).isEqualTo("{\"error\":\"no encontrado\"}");
        }
        assertThat(klave.http().get("/api/audit/" + stored, "Cookie", admin).statusCode()).isEqualTo(200);
        HttpResponse<String> cursor = klave.http().get("/api/audit?cursor=" + cursorWithDashes, "Cookie", admin);
        assertThat(cursor.statusCode()).isEqualTo(400);
        assertThat(cursor.body()).isEqualTo("{\"error\":\"cursor no válido: usa el next_cursor de la página anterior\"}");
    }

    @Test
    void anUnknownParameterABadStatusOrAForgedCursorIs400() {
        HttpResponse<String> unknown = klave.http().get("/api/audit?cluster=small&colour=red", "Cookie", admin);
        HttpResponse<String> status = klave.http().get("/api/audit?status=forbidden", "Cookie", admin);
        HttpResponse<String> cursor = klave.http().get("/api/audit?cursor=bm90LWEtY3Vyc29y", "Cookie", admin);
        HttpResponse<String> export = klave.http().get("/api/audit/export?page=2", "Cookie", admin);

        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("parámetro desconocido: colour");
        assertThat(status.statusCode()).isEqualTo(400);
        assertThat(status.body()).contains("status no válido");
        assertThat(cursor.statusCode()).isEqualTo(400);
        assertThat(cursor.body()).contains("cursor no válido");
        assertThat(export.statusCode()).isEqualTo(400);
    }

    @Test
    void theExportStreamsEveryRowPastTheOldLimitAndResumesAfterTheLastOneReceived() throws Exception {
        HttpResponse<java.io.InputStream> streamed = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build().send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + klave.port() + "/api/audit/export?format=jsonl"))
                        .header("Cookie", admin).build(), HttpResponse.BodyHandlers.ofInputStream());
        List<String> lines;
        try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(streamed.body(),
                StandardCharsets.UTF_8))) {
            lines = reader.lines().toList();
        }
        String tenth = JSON.readTree(lines.get(9)).get("id").asText();
        HttpResponse<String> resumed = klave.http().get("/api/audit/export?format=jsonl&after=" + tenth, "Cookie",
                admin);
        HttpResponse<String> unknownAfter = klave.http().get("/api/audit/export?after=nope", "Cookie", admin);

        assertThat(streamed.statusCode()).isEqualTo(200);
        assertThat(streamed.headers().firstValue("Transfer-Encoding")).contains("chunked");
        assertThat(lines).hasSize(10_050);
        assertThat(new HashSet<>(lines)).hasSize(10_050);
        assertThat(resumed.body().split("\n")).containsExactlyElementsOf(lines.subList(10, lines.size()));
        assertThat(unknownAfter.statusCode()).isEqualTo(400);
        assertThat(unknownAfter.body()).contains("after no válido");
    }

    @Test
    void theFeedHandsOutEndedRequestsAndEventsAfterACursorToAdministratorsOnly() throws Exception {
        JsonNode first = JSON.readTree(klave.http().get("/api/audit/feed?limit=3", "Cookie", admin).body());
        JsonNode next = JSON.readTree(klave.http().get("/api/audit/feed?limit=3&after="
                + first.get("next_cursor").asText(), "Cookie", admin).body());
        String person = TestingPeople.signUp(klave, "reader", false);

        assertThat(first.get("entries")).hasSize(3);
        Set<String> types = new HashSet<>();
        first.get("entries").forEach(entry -> types.add(entry.get("type").asText()));
        assertThat(types).isNotEmpty().isSubsetOf(Set.of("request", "event"));
        assertThat(next.get("entries")).hasSize(3);
        assertThat(next.get("entries").get(0).get("position").asText())
                .isNotEqualTo(first.get("entries").get(2).get("position").asText());
        assertThat(klave.http().get("/api/audit/feed", "Cookie", person).statusCode()).isEqualTo(403);
        assertThat(klave.http().get("/api/audit/feed?limit=0", "Cookie", admin).statusCode()).isEqualTo(400);
        assertThat(klave.http().get("/api/audit/feed?after=garbage", "Cookie", admin).statusCode()).isEqualTo(400);
    }

    @Test
    void controlEventsPageByCursorEachOnceAndRefuseWhatTheyDoNotKnow() throws Exception {
        dev.klave.store.JdbiControlEventStore store = new dev.klave.store.JdbiControlEventStore(
                klave.klave().database());
        for (int i = 0; i < 120; i++) {
            store.append(new ControlEvent(java.util.UUID.randomUUID().toString(), AT.plusSeconds(i), "grant.create",
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    java.util.Map.of()));
        }
        List<String> seen = new ArrayList<>();
        JsonNode page = JSON.readTree(klave.http().get("/api/control-events?type=grant.create", "Cookie", admin)
                .body());
        while (true) {
            page.get("events").forEach(event -> seen.add(event.get("id").asText()));
            if (!page.get("has_more").asBoolean()) {
                break;
            }
            page = JSON.readTree(klave.http().get("/api/control-events?type=grant.create&cursor="
                    + page.get("next_cursor").asText(), "Cookie", admin).body());
        }

        assertThat(seen).hasSize(120);
        assertThat(new HashSet<>(seen)).hasSize(120);
        assertThat(klave.http().get("/api/control-events?cursor=" + seen.getFirst(), "Cookie", admin).statusCode())
                .isEqualTo(400);
        assertThat(klave.http().get("/api/control-events?colour=red", "Cookie", admin).statusCode()).isEqualTo(400);
    }
}
