package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.testing.TestingPeople;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a person sees when something is refused: login errors and forge
 * failure codes, spent and unknown links, the 409s, a session that ends under them, and a screen
 * that is not theirs; plus a phone-sized view.
 */
class ErrorStatesBrowserTest extends BrowserTestBase {
    @Test
    void wrongPasswordShowsTheGenericRefusalAndKeepsThePersonOnTheLoginScreen() {
        TestingPeople.signUp(web.klave, "carla", false);
        Page page = browser.open(web.baseUrl);
        page.navigate("/login");

        page.getByLabel("Usuario").fill("carla");
        page.getByLabel("Contraseña").fill("no es la contraseña");
        button(page, "Entrar").click();

        assertThat(page.getByRole(AriaRole.ALERT)).hasText("Usuario o contraseña incorrectos");
        assertThat(page).hasURL(web.baseUrl + "/login");
        assertThat(page.getByLabel("Contraseña")).hasValue("");
        TestingBrowser.screenshot(page, "login-error");
    }

    /**
     * With neither the forge nor OIDC on, a failure code (from an old link) names no provider:
     * only the providers that are on are named (the forge's own texts: ForgeSignInBrowserTest).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "not_member|No se pudo entrar.",
        "denied|No se pudo entrar.",
        "rate_limited|Demasiados intentos; espera un minuto.",
        "algo_raro|No se pudo entrar."})
    void aFailureCodeNamesNoProviderThatIsOff(String code, String text) {
        Page page = browser.open(web.baseUrl);

        page.navigate("/login?error=" + code + "#sign-in-" + code);

        Locator message = page.locator("#sign-in-" + code);
        assertThat(message).hasText(text);
        assertThat(message).hasAttribute("role", "alert");
        assertThat(page.locator("main")).not().containsText("Forge");
    }

    @Test
    void spentInvitationLinkShowsThe410TextAndWhatToDo() {
        String token = TestingPeople.invite(web.klave, "dani", false);
        assertThat(web.http.send("POST", "/api/auth/link/complete", "{\"token\":\"" + token + "\",\"password\":\""
                + TestingPeople.PASSWORD + "\"}").statusCode()).isEqualTo(200);
        Page page = browser.open(web.baseUrl);

        page.navigate("/cuenta#" + token);

        assertThat(page.getByRole(AriaRole.ALERT))
                .hasText("el enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador");
        assertThat(page.getByText("Pide a un administrador de Klave que te genere uno nuevo.")).isVisible();
        assertThat(page.getByLabel("Contraseña nueva")).hasCount(0);
        assertThat(page).hasURL(web.baseUrl + "/cuenta");
        TestingBrowser.screenshot(page, "cuenta-enlace-usado");
    }

    @Test
    void unknownOrMissingLinkSaysSo() {
        Page page = browser.open(web.baseUrl);

        page.navigate("/cuenta#kli_esto-no-es-un-enlace");
        assertThat(page.getByRole(AriaRole.ALERT)).hasText("enlace no válido");

        page.navigate("/cuenta");
        page.reload();
        assertThat(page.getByRole(AriaRole.ALERT)).hasText("Este enlace no lleva ningún código de invitación.");
    }

    @Test
    void theLastAdministratorIsNotOfferedADisableAndTheInterfaceSaysWhy() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");

        assertThat(page.getByTestId("last-admin-root"))
                .hasText("Único administrador que puede entrar: no se puede deshabilitar ni desvincular");
        page.getByTestId("more-root").click();
        assertThat(page.getByRole(AriaRole.MENUITEM, new Page.GetByRoleOptions().setName("Deshabilitar root")))
                .hasCount(0);
        page.keyboard().press("Escape");
        assertThat(page.getByTestId("subject-root")).containsText("habilitado");
        org.assertj.core.api.Assertions.assertThat(web.http.send("POST", "/api/subjects/" + web.idOf(admin, "root")
                + "/disable", null, "Cookie", admin).body())
                .isEqualTo("{\"error\":\"no se puede quitar ni deshabilitar al último administrador activo\"}");
        TestingBrowser.screenshot(page, "admin-usuarios-ultimo-admin");
    }

    @Test
    void escapeCancelsTheConfirmationAndNothingHappens() {
        TestingPeople.invite(web.klave, "elena", false);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");

        AdminJourneyBrowserTest.rowAction(page, "elena", "Deshabilitar elena");
        Locator dialog = page.getByRole(AriaRole.DIALOG);
        assertThat(dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Cancelar"))).isFocused();
        page.keyboard().press("Escape");

        assertThat(dialog).isHidden();
        // Focus goes back to what opened the question: the row's menu button.
        assertThat(page.getByTestId("more-elena")).isFocused();
        assertThat(page.getByTestId("subject-elena")).containsText("habilitado");
        assertThat(web.expect(200, "GET", "/api/subjects", null, admin).toString()).doesNotContain("\"enabled\":false");
    }

    @Test
    void aLoginThatExistsIsRefusedWith409() {
        TestingPeople.invite(web.klave, "fran", false);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");

        page.getByLabel("Login").fill("fran");
        button(page, "Crear persona e invitar").click();

        assertThat(page.getByRole(AriaRole.ALERT)).hasText("Ese login ya existe (los logins no se reutilizan)");
        assertThat(page.getByTestId("one-time-link")).hasCount(0);
    }

    @Test
    void aSessionClosedByAnAdministratorSendsThePersonBackToLoginWithAMessage() {
        TestingPeople.signUp(web.klave, "gema", false);
        Page page = browser.open(web.baseUrl);
        signIn(page, "gema");
        page.navigate("/mi-cuenta");
        assertThat(page.getByTestId("me-login")).hasText("gema");
        // Every call of the account screen answered first: one still in flight when the session
        // closes gets the 401 and sends the page to /login with the notice, and the reload
        // below would then reload /login itself, where (by design) no notice is left to show.
        page.waitForLoadState(com.microsoft.playwright.options.LoadState.NETWORKIDLE);

        web.expect(204, "POST", "/api/subjects/" + web.idOf(admin, "gema") + "/logout", null, admin);
        page.reload();

        assertThat(page).hasURL(java.util.regex.Pattern.compile("/login\\?next=%2Fmi-cuenta$"));
        assertThat(page.getByRole(AriaRole.ALERT)).hasText(
                "Tu sesión ha terminado: sesión caducada o no válida. Vuelve a entrar.");
        TestingBrowser.screenshot(page, "login-sesion-caducada");
        page.getByLabel("Usuario").fill("gema");
        page.getByLabel("Contraseña").fill(TestingPeople.PASSWORD);
        button(page, "Entrar").click();
        assertThat(page).hasURL(web.baseUrl + "/mi-cuenta");
    }

    @Test
    void aPersonWithoutTheAdministratorRoleSeesNoAdministrationScreens() {
        TestingPeople.signUp(web.klave, "hugo", false);
        Page page = browser.open(web.baseUrl, 390, 844);
        signIn(page, "hugo");
        assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Usuarios"))).hasCount(0);
        assertThat(page.getByText("Todavía no tienes permisos en ningún cluster.")).isVisible();
        assertThat(page.getByText("Ninguna petición tuya a los clusters todavía.")).isVisible();
        TestingBrowser.screenshot(page, "mi-cuenta-movil");

        page.navigate("/admin/usuarios");

        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Solo para administradores")))
                .isVisible();
    }

    @Test
    void loginScreenFitsAPhone() {
        Page page = browser.open(web.baseUrl, 390, 844);
        page.navigate("/login");

        assertThat(page.getByLabel("Usuario")).isVisible();
        Object overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth");
        assertThat(overflow).isEqualTo(false);
        TestingBrowser.screenshot(page, "login-movil");
    }

    @Test
    void aCorrectedLinkPastedIntoTheSameTabIsReadAgain() {
        String token = TestingPeople.invite(web.klave, "elia", false);
        Page page = browser.open(web.baseUrl);
        page.navigate("/cuenta#kli_miscopied");
        assertThat(page.getByRole(AriaRole.ALERT)).containsText("enlace no válido");

        page.evaluate("token => { location.hash = token; }", token);

        assertThat(page.getByTestId("link-login")).hasText("elia");
        assertThat(page.getByLabel("Contraseña nueva")).isVisible();
    }
}
