package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.BoundingBox;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingPeople;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What Klave shows once — a credential's token and kubeconfig, a one-time link — is not lost with
 * one click: every way out of the screen asks first (a link of the navigation, Back, "Salir"),
 * the link appears where the person is looking, and focus never falls to the page's body.
 */
class ShownOnceBrowserTest extends BrowserTestBase {
    @BeforeAll
    void aGrantToIssueWith() {
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + web.idOf(admin, "root")
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"*\"}", admin);
    }

    private static Locator dialog(Page page) {
        return page.getByRole(AriaRole.DIALOG);
    }

    private static void answer(Page page, String choice) {
        dialog(page).getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName(choice).setExact(true)).click();
    }

    private static void navLink(Page page, String name) {
        page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Principal"))
                .getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName(name).setExact(true)).click();
    }

    private static Page issued(TestingBrowser browser, String baseUrl) {
        Page page = browser.open(baseUrl);
        signIn(page, "root");
        page.navigate("/mi-cuenta");
        button(page, "Emitir credencial").click();
        assertThat(page.getByTestId("issued-token")).isVisible();
        return page;
    }

    @Test
    void aNavigationLinkAsksBeforeLeavingAShownTokenAndStayingKeepsIt() {
        Page page = issued(browser, web.baseUrl);
        String token = page.getByTestId("issued-token").inputValue();

        navLink(page, "Usuarios");

        assertThat(dialog(page)).containsText("¿Salir sin guardarlo?");
        assertThat(dialog(page)).containsText("un token y un kubeconfig");
        answer(page, "Cancelar");
        assertThat(page).hasURL(web.baseUrl + "/mi-cuenta");
        assertThat(page.getByTestId("issued-token")).hasValue(token);

        navLink(page, "Usuarios");
        answer(page, "Salir y perderlo");
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Usuarios").setLevel(1)))
                .isVisible();
    }

    @Test
    void backAndSignOutAskToo() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        // Moves inside the app (history entries of this page), as a person clicks.
        navLink(page, "Clusters");
        navLink(page, "Mi cuenta");
        button(page, "Emitir credencial").click();
        assertThat(page.getByTestId("issued-token")).isVisible();

        page.goBack();

        assertThat(dialog(page)).containsText("¿Salir sin guardarlo?");
        answer(page, "Cancelar");
        assertThat(page).hasURL(web.baseUrl + "/mi-cuenta");
        assertThat(page.getByTestId("issued-token")).isVisible();

        button(page, "Salir: cierra todas tus sesiones").click();
        assertThat(dialog(page)).containsText("¿Salir sin guardarlo?");
        answer(page, "Cancelar");
        assertThat(page.getByTestId("issued-token")).isVisible();
    }

    @Test
    void theAdministratorsCredentialsViewAsksAndFocusReturnsToItsHeading() {
        TestingPeople.signUp(web.klave, "pepa", false);
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + web.idOf(admin, "pepa")
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"*\"}", admin);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        // From a person's "Credenciales (n)": issuing is for that person already.
        page.navigate("/admin/usuarios");
        page.getByTestId("credentials-of-pepa").click();
        assertThat(page.locator("select[name=subject]")).hasValue(web.idOf(admin, "pepa"));
        assertThat(page.getByLabel("Duración")).not().containsText("90 días");
        button(page, "Emitir credencial").click();
        assertThat(page.getByTestId("issued-token")).isVisible();

        navLink(page, "Mi cuenta");
        assertThat(dialog(page)).containsText("¿Salir sin guardarlo?");
        answer(page, "Cancelar");
        button(page, "Ya lo he guardado").click();

        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Emitir para otra cuenta")))
                .isFocused();
    }

    @Test
    void aNewLinkComesIntoViewFocusedAndNoToastCoversTheLastRowsButtons() {
        // After root in the list: a new link for root would end the administrator's own session.
        for (int i = 0; i < 25; i++) {
            TestingPeople.signUp(web.klave, "zz-persona-" + (char) ('a' + i), false);
        }
        Page page = browser.open(web.baseUrl, 1366, 850);
        signIn(page, "root");
        page.navigate("/admin/usuarios");
        Locator last = page.locator("[data-testid^=subject-]").last();
        String login = last.getAttribute("data-testid").substring("subject-".length());
        last.scrollIntoViewIfNeeded();

        AdminJourneyBrowserTest.rowAction(page, login, "Enlace nuevo para " + login);
        answer(page, "Generar enlace");

        Locator heading = page.getByTestId("one-time-link").getByRole(AriaRole.HEADING);
        assertThat(heading).isInViewport();
        assertThat(heading).isFocused();
        assertThat(heading).containsText("Enlace de restablecimiento de " + login);
        // Back at the row: its buttons are not under the toast that says the link was made.
        last.scrollIntoViewIfNeeded();
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)");
        BoundingBox toast = page.locator(".toast").first().boundingBox();
        for (Locator action : last.getByRole(AriaRole.BUTTON).all()) {
            BoundingBox box = action.boundingBox();
            boolean overlaps = box.x < toast.x + toast.width && toast.x < box.x + box.width
                    && box.y < toast.y + toast.height && toast.y < box.y + box.height;
            org.assertj.core.api.Assertions.assertThat(overlaps).as("the toast covers %s", action.textContent()).isFalse();
        }
        TestingBrowser.screenshot(page, "admin-usuarios-enlace-a-la-vista");
    }

    @Test
    void aPersonWhoNeverSignedInGetsAnActivationLinkNotAResetLink() {
        TestingPeople.invite(web.klave, "nueva", false);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");

        AdminJourneyBrowserTest.rowAction(page, "nueva", "Enlace nuevo para nueva");
        assertThat(dialog(page)).containsText("Enlace de activación para nueva");
        answer(page, "Generar enlace");

        assertThat(page.getByTestId("one-time-link")).containsText("Enlace de activación de nueva");
        navLink(page, "Clusters");
        assertThat(dialog(page)).containsText("un enlace de un solo uso");
        answer(page, "Cancelar");
        button(page, "Ya lo he enviado").click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Usuarios").setLevel(1)))
                .isFocused();
    }
}
