package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import dev.klave.testing.TestingClusters;
import org.junit.jupiter.api.Test;

/**
 * Issue 40 item 11: the first administrator of a new installation lands on a checklist — register a
 * cluster, give a grant, issue a credential, connect an agent — each a link, ticked when true, gone
 * once all are; not told to ask an administrator for grants, since she is the one.
 */
class FirstStepsBrowserTest extends BrowserTestBase {
    private static Locator step(Page page, String name) {
        return page.getByTestId("first-step").filter(new Locator.FilterOptions().setHasText(name));
    }

    @Test
    void theFirstAdministratorIsGivenFirstStepsTickedAsTheyAreDone() {
        Page page = browser.open(web.baseUrl, 1366, 900, ColorScheme.LIGHT);
        signIn(page, "root");
        assertThat(page.getByTestId("first-step")).hasCount(4);
        assertThat(page.getByTestId("first-steps")).containsText("Quedan 4 pasos");
        assertThat(step(page, "Registra un cluster")).containsText("pendiente");
        assertThat(step(page, "Registra un cluster").getByRole(com.microsoft.playwright.options.AriaRole.LINK))
                .hasAttribute("href", "/admin/clusters");
        assertThat(page.getByText("Como administrador, puedes darte uno en Permisos.")).isVisible();
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        TestingBrowser.screenshot(page, "mi-cuenta-primeros-pasos");

        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
        page.reload();
        assertThat(step(page, "Registra un cluster")).containsText("hecho");
        assertThat(page.getByTestId("first-steps")).containsText("Quedan 3 pasos");

        String root = web.expect(200, "GET", "/api/me", null, admin).get("id").asText();
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + root + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"team-a\"}", admin);
        web.expect(201, "POST", "/api/credentials", "{\"ttl\":\"1h\"}", admin);
        page.reload();
        assertThat(page.getByTestId("first-steps")).containsText("Queda un paso");
        assertThat(step(page, "Conecta un agente")).containsText("pendiente");
    }
}
