package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.microsoft.playwright.Page;
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
