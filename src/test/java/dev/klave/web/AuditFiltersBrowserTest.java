package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.audit.AuditRow;
import dev.klave.testing.TestingAuditRows;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The audit screen's filters, inputs and address always agree: after clearing, and on back and forward. */
class AuditFiltersBrowserTest extends BrowserTestBase {
    @Test
    void theInputsFollowTheAddressAfterClearingAndOnBackAndForward() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/auditoria");

        page.getByLabel("Verbo").fill("list");
        page.getByLabel("Namespace").fill("team-a");
        button(page, "Filtrar").click();
        assertThat(page).hasURL(Pattern.compile("/admin/auditoria\\?.*verb=list"));

        page.getByRole(com.microsoft.playwright.options.AriaRole.LINK,
                new Page.GetByRoleOptions().setName("Quitar filtros")).click();
        assertThat(page).hasURL(web.baseUrl + "/admin/auditoria");
        assertThat(page.getByLabel("Verbo")).hasValue("");
        assertThat(page.getByLabel("Namespace")).hasValue("");

        page.goBack();
        assertThat(page).hasURL(Pattern.compile("verb=list"));
        assertThat(page.getByLabel("Verbo")).hasValue("list");
        assertThat(page.getByLabel("Namespace")).hasValue("team-a");

        page.goForward();
        assertThat(page.getByLabel("Verbo")).hasValue("");
    }

    /**
     * Spec 3 "Tool rules" 3: a row says whether it came through the proxy or from an agent's tool,
     * and with which session; the screen filters by each, the export follows the filters, and the
     * row's page says it too.
     */
    @Test
    void rowsSayHowTheyCameAndFilterByChannelToolAndSession() {
        String session = "ses_" + "0123456789abcdef".repeat(3);
        String proxied = java.util.UUID.randomUUID().toString();
        String fromTool = java.util.UUID.randomUUID().toString();
        String fromBot = java.util.UUID.randomUUID().toString();
        java.time.Instant at = java.time.Instant.parse("2026-11-25T09:00:00Z");
        new dev.klave.store.JdbiAuditStore(web.klave.klave().database()).write(List.of(
                row(proxied, at, dev.klave.audit.Channel.PROXY),
                row(fromTool, at.plusSeconds(1), dev.klave.audit.Channel.tool("get_logs", session)),
                row(fromBot, at.plusSeconds(2), dev.klave.audit.Channel.tool("list_resources"))), List.of());
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/auditoria?cluster=canales-1");
        assertThat(page.getByTestId("audit-row")).hasCount(3);
        assertThat(page.getByTestId("audit-row").filter(new Locator.FilterOptions().setHasText(fromTool))
                .getByTestId("audit-channel")).hasText("Herramienta get_logs · sesión " + session);
        assertThat(page.getByTestId("audit-row").filter(new Locator.FilterOptions().setHasText(proxied))
                .getByTestId("audit-channel")).hasText("Proxy");

        page.getByLabel("Canal").selectOption("tool");
        button(page, "Filtrar").click();

        assertThat(page).hasURL(Pattern.compile("channel=tool"));
        assertThat(page.getByTestId("audit-row")).hasCount(2);
        assertThat(page.getByTestId("audit-total")).containsText("2 peticiones");
        assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Exportar CSV")))
                .hasAttribute("href", Pattern.compile("channel=tool"));
        page.getByTitle("Ver solo las peticiones de esta sesión del agente").click();
        assertThat(page).hasURL(Pattern.compile("session=" + session));
        assertThat(page.getByLabel("Sesión del agente")).hasValue(session);
        assertThat(page.getByTestId("audit-row")).hasCount(1);
        TestingBrowser.screenshot(page, "admin-auditoria-sesion");

        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName(fromTool)).click();
        assertThat(page.getByTestId("audit-channel")).hasText("Herramienta get_logs");
        assertThat(page.getByTestId("audit-session")).hasText(session);
        page.navigate("/admin/auditoria/" + fromBot);
        assertThat(page.getByTestId("audit-session")).containsText("credencial de un bot");
        page.navigate("/admin/auditoria/" + proxied);
        assertThat(page.getByTestId("audit-channel")).hasText("Proxy");
        assertThat(page.getByTestId("audit-session")).hasCount(0);

        page.navigate("/admin/auditoria?channel=mcp");
        assertThat(page.getByRole(AriaRole.ALERT).filter(new Locator.FilterOptions()
                .setHasText("«Canal» no válido: usa proxy o tool"))).isVisible();
    }

    @Test
    void aDryRunReadsAsASimulationAndTheFilterKeepsOnlyThem() {
        String dry = java.util.UUID.randomUUID().toString();
        String real = java.util.UUID.randomUUID().toString();
        java.time.Instant at = java.time.Instant.parse("2026-11-25T09:30:00Z");
        AuditRow.Request create = TestingAuditRows.request("create", "team-a", "configmaps",
                "/api/v1/namespaces/team-a/configmaps");
        new dev.klave.store.JdbiAuditStore(web.klave.klave().database()).write(List.of(
                AuditRow.opened(dry, at, ANA, "simulaciones-1", TestingAuditRows.asDryRun(create))
                        .ended(TestingAuditRows.answered(201, at)),
                AuditRow.opened(real, at.plusSeconds(1), ANA, "simulaciones-1", create)
                        .ended(TestingAuditRows.answered(201, at))), List.of());
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/auditoria?cluster=simulaciones-1");
        TestingBrowser.screenshot(page, "admin-auditoria-simulaciones");
        assertThat(page.getByTestId("audit-row")).hasCount(2);
        assertThat(page.getByTestId("audit-row").filter(new Locator.FilterOptions().setHasText(dry))
                .getByTestId("audit-dry-run")).hasText("simulación");
        assertThat(page.getByTestId("audit-row").filter(new Locator.FilterOptions().setHasText(real))
                .getByTestId("audit-dry-run")).hasCount(0);

        page.getByLabel("Simulaciones").selectOption("true");
        button(page, "Filtrar").click();

        assertThat(page).hasURL(Pattern.compile("dry_run=true"));
        assertThat(page.getByTestId("audit-row")).hasCount(1);
        assertThat(page.getByTestId("audit-row")).containsText(dry);
    }

    private static AuditRow row(String id, java.time.Instant at, dev.klave.audit.Channel channel) {
        return AuditRow.opened(id, at, ANA, "canales-1", TestingAuditRows.through(TestingAuditRows.request("get",
                "team-a", "pods", "web-0", "/api/v1/namespaces/team-a/pods/web-0/log"), channel))
                .ended(TestingAuditRows.answered(200, at));
    }

    /** Ana by her login alone, as the rows this page shows name her. */
    private static final AuditRow.Actor ANA = new AuditRow.Actor(Optional.empty(), Optional.of("ana"),
            Optional.empty(), Optional.empty());

    @Test
    void controlEventsReadAsSentencesAndFilterByTypeAndPerson() {
        dev.klave.testing.TestingPeople.signUp(web.klave, "beto", false);
        String beto = web.idOf(admin, "beto");
        web.expect(200, "POST", "/api/subjects/" + beto + "/disable", null, admin);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/auditoria?vista=eventos");

        page.getByLabel("Tipo").selectOption("user.");
        page.getByLabel("Persona").selectOption(new com.microsoft.playwright.options.SelectOption().setLabel("beto"));
        button(page, "Filtrar").click();

        assertThat(page).hasURL(Pattern.compile("vista=eventos.*type=user\\.|type=user\\..*vista=eventos"));
        assertThat(page.getByTestId("control-event").first()).containsText("root deshabilitó a beto");
        assertThat(page.getByTestId("control-events")).not().containsText("user.disable");
        page.getByLabel("Tipo").selectOption("login.");
        page.getByLabel("Persona").selectOption(new com.microsoft.playwright.options.SelectOption().setLabel("root"));
        button(page, "Filtrar").click();
        assertThat(page.getByTestId("control-event").first()).containsText("root entró con contraseña");
        TestingBrowser.screenshot(page, "admin-auditoria-eventos");
    }

    @Test
    void theExportHoldsTheFilteredRowsTheApiGivesAndTheTotalIsShown() throws Exception {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/auditoria?include_discovery=true");
        assertThat(page.getByTestId("audit-total")).containsText("con estos filtros");

        com.microsoft.playwright.Download download = page.waitForDownload(() -> page.getByRole(
                com.microsoft.playwright.options.AriaRole.LINK, new Page.GetByRoleOptions().setName("Exportar JSON lines"))
                .click());

        String exported = java.nio.file.Files.readString(download.path());
        String fromApi = web.http.get("/api/audit/export?include_discovery=true&format=jsonl", "Cookie", admin).body();
        org.assertj.core.api.Assertions.assertThat(exported).isEqualTo(fromApi);
        long total = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                web.http.get("/api/audit?include_discovery=true", "Cookie", admin).body()).get("total").asLong();
        org.assertj.core.api.Assertions.assertThat(exported.lines().count()).isEqualTo(total);
    }
}
