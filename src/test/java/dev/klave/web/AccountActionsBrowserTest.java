package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The account actions of the users screen and of one's own account, each confirmed in the page
 * and checked in the API afterwards: disable and enable, a reset link shown once that works,
 * and a password change that ends the person's other sessions.
 */
class AccountActionsBrowserTest extends BrowserTestBase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NEW_PASSWORD = "otra contraseña bastante larga";

    private JsonNode subject(String login) throws Exception {
        for (JsonNode subject : JSON.readTree(web.klave.http().get("/api/subjects", "Cookie", admin).body())) {
            if (subject.get("login").asText().equals(login)) {
                return subject;
            }
        }
        throw new AssertionError("no subject " + login);
    }

    private static void confirm(Page page, String login, String action, String confirmLabel) {
        AdminJourneyBrowserTest.rowAction(page, login, action);
        page.getByRole(AriaRole.DIALOG).getByRole(AriaRole.BUTTON,
                new Locator.GetByRoleOptions().setName(confirmLabel).setExact(true)).click();
    }

    @Test
    void administratorDisablesAndEnablesAPersonAfterConfirming() throws Exception {
        TestingPeople.signUp(web.klave, "fede", false);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");

        confirm(page, "fede", "Deshabilitar fede", "Deshabilitar");

        assertThat(page.locator(".toasts")).containsText("fede deshabilitado.");
        assertThat(page.getByTestId("subject-fede")).containsText("deshabilitado");
        assertThat(subject("fede").get("enabled").asBoolean()).isFalse();
        assertThat(TestingPeople.attempt(web.klave.http(), "fede", TestingPeople.PASSWORD).statusCode())
                .isEqualTo(401);

        confirm(page, "fede", "Habilitar fede", "Habilitar");

        assertThat(page.locator(".toasts")).containsText("fede habilitado.");
        assertThat(subject("fede").get("enabled").asBoolean()).isTrue();
        assertThat(TestingPeople.attempt(web.klave.http(), "fede", TestingPeople.PASSWORD).statusCode())
                .isEqualTo(200);
    }

    @Test
    void resetLinkIsShownOnceAndSetsANewPassword() throws Exception {
        TestingPeople.signUp(web.klave, "gala", false);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");

        confirm(page, "gala", "Enlace nuevo para gala", "Generar enlace");

        Locator shown = page.getByTestId("one-time-link");
        assertThat(shown).containsText("Enlace de restablecimiento de gala");
        String link = shown.locator("input, textarea").first().inputValue();
        assertThat(link).startsWith(web.baseUrl + "/cuenta#kli_");
        TestingBrowser.screenshot(page, "admin-usuarios-enlace");
        page.reload();
        assertThat(page.getByTestId("one-time-link")).hasCount(0);
        assertThat(page.content()).doesNotContain(TestingPeople.tokenOf(link));

        Page gala = browser.open(web.baseUrl);
        gala.navigate(link);
        gala.getByLabel("Contraseña nueva", new Page.GetByLabelOptions().setExact(true)).fill(NEW_PASSWORD);
        gala.getByLabel("Repite la contraseña", new Page.GetByLabelOptions().setExact(true)).fill(NEW_PASSWORD);
        button(gala, "Guardar contraseña y entrar").click();
        assertThat(gala.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Mi cuenta"))).isVisible();
        assertThat(TestingPeople.attempt(web.klave.http(), "gala", NEW_PASSWORD).statusCode()).isEqualTo(200);
    }

    @Test
    void passwordChangeEndsThePersonsOtherSessions() {
        TestingPeople.signUp(web.klave, "hugo", false);
        Page elsewhere = browser.open(web.baseUrl);
        signIn(elsewhere, "hugo");
        Page page = browser.open(web.baseUrl);
        signIn(page, "hugo");

        page.getByLabel("Contraseña actual").fill(TestingPeople.PASSWORD);
        page.getByLabel("Contraseña nueva (al menos 12 caracteres)").fill(NEW_PASSWORD);
        page.getByLabel("Repite la contraseña nueva").fill(NEW_PASSWORD);
        button(page, "Cambiar contraseña").click();

        assertThat(page.locator(".toasts")).containsText("Contraseña cambiada");
        elsewhere.reload();
        assertThat(elsewhere).hasURL(java.util.regex.Pattern.compile(".*/login.*"));
        HttpResponse<String> old = TestingPeople.attempt(web.klave.http(), "hugo", TestingPeople.PASSWORD);
        assertThat(old.statusCode()).isEqualTo(401);
        assertThat(TestingPeople.attempt(web.klave.http(), "hugo", NEW_PASSWORD).statusCode()).isEqualTo(200);
    }

    @Test
    void theUsersListFiltersAndShowsSignInsGrantsAndInvitations() {
        TestingPeople.signUp(web.klave, "humberto", false);
        TestingPeople.invite(web.klave, "irma", false);
        web.expect(201, "POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"nightly\"}", admin);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");

        assertThat(page.getByTestId("subject-irma")).containsText("invitación pendiente (caduca");
        assertThat(page.getByTestId("subject-humberto")).not().containsText("nunca");
        assertThat(page.getByTestId("subject-irma")).containsText("nunca");
        page.getByLabel("Tipo").selectOption("bot");
        assertThat(page.getByTestId("subject-nightly")).isVisible();
        assertThat(page.getByTestId("subject-humberto")).hasCount(0);
        page.getByLabel("Tipo").selectOption("");
        page.getByLabel("Buscar", new Page.GetByLabelOptions().setExact(true)).fill("humb");
        assertThat(page.getByTestId("subject-humberto")).isVisible();
        assertThat(page.getByTestId("subject-irma")).hasCount(0);
        page.getByLabel("Buscar", new Page.GetByLabelOptions().setExact(true)).fill("");

        button(page, "Editar humberto").click();
        assertThat(page.locator("tr.row-editor")).isVisible();
        assertThat(page.locator("tr[data-testid=subject-humberto] + tr.row-editor")).hasCount(1);
    }
}
