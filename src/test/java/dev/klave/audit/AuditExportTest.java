package dev.klave.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.store.JdbiAuditStore;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code GET /api/audit/export}: the filtered rows, the same the listing gives, as CSV or JSON lines, and a total. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant AT = Instant.parse("2026-11-25T09:00:00Z");

    private TestingKlave klave;
    private String admin;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        admin = TestingPeople.signUp(klave, "root", true);
        List<AuditRow> rows = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            rows.add(new AuditRow(UUID.randomUUID().toString(), AT.plusSeconds(i), Optional.of("s-1"), Optional.of("ana"),
                    Optional.of("cred-" + i), "prod-1", Optional.of("team-a"), i == 2 ? "delete" : "list",
                    Optional.of("configmaps"), Optional.of(i == 1 ? "=HYPERLINK(\"x\"),\"quoted\"" : "plain"),
                    "/api/v1/namespaces/team-a/configmaps", Optional.of("10.0.0.7"), Optional.of(200),
                    Optional.empty(), Optional.of(AT.plusSeconds(i))));
        }
        // A tool's request: its session id is opaque, and this one reads like a formula.
        rows.add(new AuditRow(UUID.randomUUID().toString(), AT.plusSeconds(9), Optional.of("s-1"), Optional.of("ana"),
                Optional.of("cred-9"), "prod-1", Optional.of("team-a"), "get", Optional.of("pods"), Optional.of("web-0"),
                "/api/v1/namespaces/team-a/pods/web-0/log", Optional.empty(), Optional.of(200), Optional.empty(),
                Optional.of(AT.plusSeconds(9)), Channel.tool("get_logs", "=SUM(A1),x")));
        new JdbiAuditStore(klave.klave().database()).write(rows, List.of());
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    @Test
    void jsonLinesHoldExactlyTheRowsTheListingGivesWithTheirTotal() throws Exception {
        JsonNode listing = JSON.readTree(klave.http().get("/api/audit?verb=list", "Cookie", admin).body());
        HttpResponse<String> export = klave.http().get("/api/audit/export?verb=list&format=jsonl", "Cookie", admin);

        assertThat(listing.get("total").asLong()).isEqualTo(2);
        assertThat(export.statusCode()).isEqualTo(200);
        assertThat(export.headers().firstValue("Content-Type")).contains("application/x-ndjson; charset=utf-8");
        assertThat(export.headers().firstValue("Content-Disposition")).contains("attachment; filename=\"klave-audit.jsonl\"");
        List<JsonNode> lines = new ArrayList<>();
        for (String line : export.body().split("\n")) {
            lines.add(JSON.readTree(line));
        }
        List<JsonNode> listed = new ArrayList<>();
        listing.get("events").forEach(listed::add);
        assertThat(lines).isEqualTo(listed);
    }

    @Test
    void csvQuotesWhatItMustAndDisarmsFormulas() {
        HttpResponse<String> export = klave.http().get("/api/audit/export?verb=list", "Cookie", admin);

        assertThat(export.headers().firstValue("Content-Type")).contains("text/csv; charset=utf-8");
        String[] lines = export.body().split("\r\n");
        assertThat(lines[0]).startsWith("id,at,subject_id,subject,credential,cluster,");
        assertThat(lines).hasSize(3);
        assertThat(export.body()).contains(",\"'=HYPERLINK(\"\"x\"\"),\"\"quoted\"\"\",");
    }

    @Test
    void csvSaysHowEachRowCameInItsLastColumns() {
        String[] proxy = klave.http().get("/api/audit/export?verb=list", "Cookie", admin).body().split("\r\n");
        String[] tool = klave.http().get("/api/audit/export?channel=tool&tool=get_logs", "Cookie", admin).body()
                .split("\r\n");

        assertThat(proxy[0]).endsWith(",completed_at,channel,tool,session,dry_run");
        assertThat(proxy[1]).endsWith(",proxy,,,false");
        assertThat(tool).hasSize(2);
        assertThat(tool[1]).endsWith(",tool,get_logs,\"'=SUM(A1),x\",false");
    }

    @Test
    void jsonLinesSayHowEachRowCame() throws Exception {
        String line = klave.http().get("/api/audit/export?channel=tool&format=jsonl", "Cookie", admin).body().strip();
        JsonNode row = JSON.readTree(line);

        assertThat(row.get("channel").asText()).isEqualTo("tool");
        assertThat(row.get("tool").asText()).isEqualTo("get_logs");
        assertThat(row.get("session").asText()).isEqualTo("=SUM(A1),x");
        assertThat(row.get("dry_run").asBoolean(true)).isFalse();
    }

    @Test
    void anotherFormatIs400AndOnlyPeopleSignedInExport() {
        assertThat(klave.http().get("/api/audit/export?format=xml", "Cookie", admin).statusCode()).isEqualTo(400);
        assertThat(klave.http().get("/api/audit/export").statusCode()).isEqualTo(401);
    }
}
