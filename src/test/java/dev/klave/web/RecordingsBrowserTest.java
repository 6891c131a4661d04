package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.ColorScheme;
import dev.klave.testing.TestingClusters;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Recorded sessions (issue 42) in Chromium: a cluster's page shows and sets its recording policy; a
 * session made with the real kubectl is listed under "Sesiones" and plays in the bundled player —
 * the text appears on screen — with the strict CSP; the audit row links to it.
 */
class RecordingsBrowserTest extends BrowserTestBase {
    @BeforeAll
    void aCluster() {
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
    }

    @Test
    void aSessionMadeWithKubectlIsListedAndPlaysOnScreen() throws Exception {
        String eva = dev.klave.testing.TestingPeople.signUp(web.klave, "eva", false);
        String evaId = web.expect(200, "GET", "/api/me", null, eva).get("id").asText();
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + evaId + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"edit\",\"scope\":\"team-a\"}", admin);
        web.awaitBinding("team-a", "edit");
        String kubeconfig = web.expect(201, "POST", "/api/credentials", "{\"ttl\":\"1h\"}", eva).get("kubeconfig")
                .asText();
        try (dev.klave.simulator.Kubectl kubectl = new dev.klave.simulator.Kubectl(kubeconfig)) {
            dev.klave.simulator.Kubectl.Result result = kubectl.run("exec", "web-0", "-n", "team-a", "--", "echo",
                    "hola desde la sesión");
            org.assertj.core.api.Assertions.assertThat(result.exitCode()).as(result.stderr()).isZero();
        }
        web.klave.hooks().flushRecordings();

        for (int width : List.of(1366, 390)) {
            Page page = browser.open(web.baseUrl, width, 900, ColorScheme.LIGHT);
            signIn(page, "root");
            page.navigate("/sesiones");
            Locator row = page.getByTestId("sessions").getByRole(AriaRole.ROW,
                    new Locator.GetByRoleOptions().setName(java.util.regex.Pattern.compile("eva")));
            assertThat(row).containsText("echo hola desde la sesión");
            assertThat(row).containsText("completa");
            // Search in what was printed: the line found links to the player at its moment.
            page.getByRole(AriaRole.SEARCHBOX).fill("desde la");
            page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Buscar")).click();
            assertThat(page.getByTestId("search-results")).containsText("hola desde la sesión");
            org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page))
                    .as("/sesiones, " + width + " px").isEmpty();
            org.assertj.core.api.Assertions.assertThat(page.getByTestId("search-results").getByRole(AriaRole.LINK)
                    .first().getAttribute("href")).contains("?t=");
            row.getByRole(AriaRole.LINK).click();
            assertThat(page.getByTestId("player")).containsText("hola desde la sesión");
            TestingBrowser.screenshot(page, "sesion-grabada-" + width);
            page.context().close();
        }

        // Issue 51: an administrator deletes it from its page, asked first; it is gone, and the event says so.
        Page page = browser.open(web.baseUrl, 1366, 900, ColorScheme.LIGHT);
        signIn(page, "root");
        page.navigate("/sesiones");
        page.getByTestId("sessions").getByRole(AriaRole.ROW, new Locator.GetByRoleOptions()
                .setName(java.util.regex.Pattern.compile("eva"))).getByRole(AriaRole.LINK).click();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Borrar grabación")).click();
        page.getByRole(AriaRole.DIALOG).getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Borrar")
                .setExact(true)).click();
        assertThat(page.getByText("Grabación borrada.")).isVisible();
        assertThat(page.locator("main")).not().containsText("echo hola desde la sesión");
        org.assertj.core.api.Assertions.assertThat(web.expect(200, "GET", "/api/control-events?type=recording.delete",
                null, admin).toString()).contains("eva");
        page.context().close();
    }

    @Test
    void aClustersPageShowsAndSetsItsRecordingPolicy() {
        for (int width : List.of(1366, 390)) {
            Page page = browser.open(web.baseUrl, width, 900, ColorScheme.LIGHT);
            signIn(page, "root");
            page.navigate("/admin/clusters/prod-1");
            Locator card = page.getByTestId("recording-policy");
            assertThat(card.getByRole(AriaRole.RADIO, new Locator.GetByRoleOptions().setName("Grabar").setExact(true)))
                    .isChecked();
            card.getByRole(AriaRole.RADIO, new Locator.GetByRoleOptions()
                    .setName("Grabar siempre (obligatoria)")).check();
            assertThat(card).containsText("Sin grabación no hay sesión");
            card.getByRole(AriaRole.CHECKBOX, new Locator.GetByRoleOptions()
                    .setName("Grabar también lo que se teclea (stdin)")).check();
            card.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Guardar")).click();
            assertThat(page.getByText("Guardada la grabación de sesiones de este cluster.")).isVisible();
            org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page))
                    .as("the cluster's page, " + width + " px").isEmpty();
            org.assertj.core.api.Assertions.assertThat(web.expect(200, "GET", "/api/clusters/prod-1/recording", null,
                    admin).get("policy").asText()).isEqualTo("required");
            org.assertj.core.api.Assertions.assertThat(web.expect(200, "GET", "/api/clusters/prod-1/recording", null,
                    admin).get("stdin").asBoolean()).isTrue();
            web.expect(200, "PUT", "/api/clusters/prod-1/recording", "{\"policy\":\"on\"}", admin);
            page.context().close();
        }
    }
}
