package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.simulator.Kubectl;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingPeople;
import java.nio.file.Files;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A person's path through the interface: invitation link → password →
 * signed in → issue a credential → see its token and kubeconfig once → use it → revoke it.
 */
class PersonJourneyBrowserTest extends BrowserTestBase {
    @BeforeAll
    void bootstrapCluster() {
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
    }

    private static Locator button(Page page, String name) {
        return page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
    }

    @Test
    void invitedPersonSetsAPasswordIssuesACredentialSeesItOnceUsesItAndRevokesIt() throws Exception {
        String token = TestingPeople.invite(web.klave, "ana", false);
        String anaId = web.idOf(admin, "ana");
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + anaId
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"edit\",\"scope\":\"team-a\"}", admin);
        web.awaitBinding("team-a", "edit");
        Page page = browser.open(web.baseUrl);

        page.navigate("/cuenta#" + token);
        assertThat(page.getByTestId("link-login")).hasText("ana");
        assertThat(page.getByTestId("link-purpose")).hasText("invitación para crear tu cuenta");
        assertThat(page).hasURL(web.baseUrl + "/cuenta");
        TestingBrowser.screenshot(page, "cuenta-invitacion");
        page.getByLabel("Contraseña nueva").fill(TestingPeople.PASSWORD);
        page.getByLabel("Repite la contraseña").fill(TestingPeople.PASSWORD);
        button(page, "Guardar contraseña y entrar").click();

        assertThat(page).hasURL(web.baseUrl + "/mi-cuenta");
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Mi cuenta"))).isVisible();
        assertThat(page.getByTestId("me-login")).hasText("ana");
        Locator grants = page.locator("section", new Page.LocatorOptions().setHas(page.getByRole(AriaRole.HEADING,
                new Page.GetByRoleOptions().setName("Mis permisos"))));
        assertThat(grants.locator("tbody tr")).containsText("prod-1");
        assertThat(grants.locator("tbody tr")).containsText("team-a");
        assertThat(page.getByText("Todavía no has emitido ninguna credencial.")).isVisible();

        page.getByLabel("Duración").selectOption("1h");
        page.getByLabel("Nombre", new Page.GetByLabelOptions().setExact(true)).fill("portatil");
        page.getByLabel("Nota").fill("para el turno de guardia");
        button(page, "Emitir credencial").click();

        Locator issued = page.getByTestId("issued-credential");
        assertThat(issued).containsText("Klave no vuelve a mostrar este token");
        String shownToken = page.getByTestId("issued-token").inputValue();
        assertThat(shownToken).startsWith("klt_");
        assertThat(page.getByTestId("issued-kubeconfig").inputValue()).contains(shownToken)
                .contains(web.baseUrl + "/clusters/prod-1");
        TestingBrowser.screenshot(page, "mi-cuenta-credencial-emitida");
        Download download = page.waitForDownload(() -> button(page, "Descargar klave-portatil.kubeconfig").click());
        String kubeconfig = Files.readString(download.path());
        assertThat(kubeconfig).contains(shownToken);

        try (Kubectl kubectl = new Kubectl(kubeconfig)) {
            Kubectl.Result pods = kubectl.run("get", "pods", "-n", "team-a");
            assertThat(pods.exitCode()).as(pods.output()).isZero();
            assertThat(pods.stdout()).contains("web-0");

            button(page, "Ya lo he guardado").click();
            assertThat(issued).isHidden();
            page.reload();
            Locator row = page.getByTestId("credential-row");
            assertThat(row).containsText("portatil");
            assertThat(row).containsText("activa");
            assertThat(page.locator("body")).not().containsText(shownToken);
            assertThat(page.locator("table.audit")).containsText("pods");
            TestingBrowser.screenshot(page, "mi-cuenta");

            button(page, "Revocar credencial portatil").click();
            Locator dialog = page.getByRole(AriaRole.DIALOG);
            assertThat(dialog).containsText("dejará de funcionar al momento");
            dialog.getByLabel("Motivo (opcional)").fill("portátil perdido");
            TestingBrowser.screenshot(page, "mi-cuenta-revocar");
            dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Revocar")).click();

            assertThat(row).containsText("revocada");
            assertThat(row).containsText("portátil perdido");
            JsonNode credential = web.expect(200, "GET", "/api/credentials", null, admin).get(0);
            assertThat(credential.get("status").asText()).isEqualTo("revoked");
            assertThat(credential.get("revoke_reason").asText()).isEqualTo("portátil perdido");
            Kubectl.Result refused = kubectl.run("get", "pods", "-n", "team-a");
            assertThat(refused.exitCode()).isNotZero();
        }
    }
}
