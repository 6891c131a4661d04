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
    private static final String PINNED = "01a00000-0000-7000-8000-0000000000e1";
    private static final String PINNED_OPEN = "01a00000-0000-7000-8000-0000000000e2";

    private TestingKlave klave;
    private String admin;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        admin = TestingPeople.signUp(klave, "root", true);
        List<AuditRow> rows = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            AuditRow.Actor ana = new AuditRow.Actor(Optional.of("s-1"), Optional.of("ana"), Optional.of("cred-" + i),
                    Optional.of("10.0.0.7"));
            AuditRow.Request request = TestingAuditRows.request(i == 2 ? "delete" : "list", "team-a", "configmaps",
                    i == 1 ? "=HYPERLINK(\"x\"),\"quoted\"" : "plain", "/api/v1/namespaces/team-a/configmaps");
            rows.add(AuditRow.opened(UUID.randomUUID().toString(), AT.plusSeconds(i), ana, "prod-1", request)
                    .ended(TestingAuditRows.answered(200, AT.plusSeconds(i))));
        }
        // A tool's request: its session id is opaque, and this one reads like a formula.
        rows.add(AuditRow.opened(UUID.randomUUID().toString(), AT.plusSeconds(9), new AuditRow.Actor(
                Optional.of("s-1"), Optional.of("ana"), Optional.of("cred-9"), Optional.empty()), "prod-1",
                TestingAuditRows.through(TestingAuditRows.request("get", "team-a", "pods", "web-0",
                        "/api/v1/namespaces/team-a/pods/web-0/log"), Channel.tool("get_logs", "=SUM(A1),x")))
                .ended(TestingAuditRows.answered(200, AT.plusSeconds(9))));
        rows.add(AuditRow.opened(PINNED, AT.plusSeconds(20), new AuditRow.Actor(
                Optional.of("6f1c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e93"), Optional.of("ana"), Optional.of("cred-pin"),
                Optional.of("10.0.0.8")), "pinned-1", TestingAuditRows.asDryRun(TestingAuditRows.request("patch",
                        "team-a", "deployments/scale", "web", "/apis/apps/v1/namespaces/team-a/deployments/web/scale")))
                .ended(new AuditRow.Outcome(422, Optional.of("no válido"), AT.plusSeconds(21))));
        rows.add(AuditRow.opened(PINNED_OPEN, AT.plusSeconds(30), new AuditRow.Actor(Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty()), "pinned-2", new AuditRow.Request("get",
                Optional.empty(), Optional.empty(), Optional.empty(), "/api", Channel.PROXY, AuditRow.DryRun.NO)));
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

    /**
     * Every field of a row, ended and not, as the listing, one row's page and both exports give
     * it (spec 1 §2 "Audit row"): names, formats and order are a contract with their readers.
     */
    @Test
    void aRowReadsTheSameInTheListingItsPageAndBothExports() throws Exception {
        String ended = "{\"id\":\"" + PINNED + "\",\"at\":\"2026-11-25T09:00:20Z\","
                + "\"subject_id\":\"6f1c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e93\",\"subject\":\"ana\","
                + "\"credential\":\"cred-pin\",\"cluster\":\"pinned-1\",\"namespace\":\"team-a\",\"verb\":\"patch\","
                + "\"resource\":\"deployments/scale\",\"name\":\"web\","
                + "\"path\":\"/apis/apps/v1/namespaces/team-a/deployments/web/scale\",\"status\":422,"
                + "\"error\":\"no válido\",\"client_ip\":\"10.0.0.8\",\"completed_at\":\"2026-11-25T09:00:21Z\","
                + "\"channel\":\"proxy\",\"tool\":null,\"session\":null,\"dry_run\":true}";
        String open = "{\"id\":\"" + PINNED_OPEN + "\",\"at\":\"2026-11-25T09:00:30Z\",\"subject_id\":null,"
                + "\"subject\":null,\"credential\":null,\"cluster\":\"pinned-2\",\"namespace\":null,\"verb\":\"get\","
                + "\"resource\":null,\"name\":null,\"path\":\"/api\",\"status\":null,\"error\":null,\"client_ip\":null,"
                + "\"completed_at\":null,\"channel\":\"proxy\",\"tool\":null,\"session\":null,\"dry_run\":false}";

        assertThat(get("/api/audit?cluster=pinned-1")).contains("\"events\":[" + ended + "]");
        assertThat(get("/api/audit/" + PINNED)).isEqualTo(ended.replace("}", ",\"access_request\":null}"));
        assertThat(get("/api/audit/export?cluster=pinned-1&format=jsonl")).isEqualTo(ended + "\n");
        assertThat(get("/api/audit/export?cluster=pinned-1")).isEqualTo("id,at,subject_id,subject,credential,"
                + "cluster,namespace,verb,resource,name,path,status,error,client_ip,completed_at,channel,tool,session,"
                + "dry_run\r\n" + PINNED + ",2026-11-25T09:00:20Z,6f1c2a8e-3b7d-4c51-9a0e-2d8f4b6c1e93,ana,cred-pin,"
                + "pinned-1,team-a,patch,"
                + "deployments/scale,web,/apis/apps/v1/namespaces/team-a/deployments/web/scale,422,no válido,10.0.0.8,"
                + "2026-11-25T09:00:21Z,proxy,,,true\r\n");
        assertThat(get("/api/audit?cluster=pinned-2&include_discovery=true")).contains("\"events\":[" + open + "]");
        assertThat(get("/api/audit/export?cluster=pinned-2&include_discovery=true&format=jsonl"))
                .isEqualTo(open + "\n");
        assertThat(get("/api/audit/export?cluster=pinned-2&include_discovery=true")).endsWith("\r\n" + PINNED_OPEN
                + ",2026-11-25T09:00:30Z,,,,pinned-2,,get,,,/api,,,,,proxy,,,false\r\n");
    }

    private String get(String path) {
        HttpResponse<String> response = klave.http().get(path, "Cookie", admin);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }

    @Test
    void anotherFormatIs400AndOnlyPeopleSignedInExport() {
        assertThat(klave.http().get("/api/audit/export?format=xml", "Cookie", admin).statusCode()).isEqualTo(400);
        assertThat(klave.http().get("/api/audit/export").statusCode()).isEqualTo(401);
    }
}
