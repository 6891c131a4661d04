package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.account.IdentityProvider;
import dev.klave.account.IssuedLink;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingForge;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sign-in through the forge in Chromium (spec 1 §5 "Forge login checks"): the login page's
 * button, the forge simulator's authorization page, Klave's callback, signed in; an invitation
 * completed by linking the forge account; a cancelled sign-in shown on the login page; and the
 * administrator's forge panel and unlink action.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgeSignInBrowserTest {
    private TestingForge forge;
    private WebKlave web;
    private TestingBrowser browser;

    @BeforeAll
    void start() {
        forge = TestingForge.start(new TestingClock());
        web = WebKlave.start(Optional.of(forge));
        browser = TestingBrowser.launch();
    }

    @AfterAll
    void stop() {
        TestingBrowser.closeAll(browser, web, forge);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "not_member|Tu cuenta de Forge no es miembro activo de la organización.",
        "no_2fa|La organización no exige doble factor, así que Klave no deja entrar con Forge.",
        "denied|Has cancelado el acceso en Forge.",
        "rate_limited|Demasiados intentos; espera un minuto.",
        "algo_raro|No se pudo entrar con Forge."})
    void aForgeFailureCodeShowsItsMessageUnderItsAnchor(String code, String text) {
        Page page = browser.open(web.baseUrl);

        page.navigate("/login?error=" + code + "#forge-" + code);

        Locator message = page.locator("#forge-" + code);
        assertThat(message).hasText(text);
        assertThat(message).hasAttribute("role", "alert");
        if (code.equals("not_member")) {
            TestingBrowser.screenshot(page, "login-error-forge");
        }
    }

    /** A person linked to an active member's forge account; returns the forge id. */
    private long linked(String login, boolean admin) {
        return forge.linkedPerson(web.klave, login, admin, true).forgeId();
    }

    private void signInWithForge(Page page) {
        page.navigate("/login");
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Entrar con Forge (acme)")).click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Mi cuenta"))).isVisible();
    }

    @Test
    void theLoginButtonGoesThroughTheForgeAndSignsIn() {
        long forgeId = linked("ines", false);
        forge.consentAs(forgeId);
        Page page = browser.open(web.baseUrl);

        signInWithForge(page);

        assertThat(page.getByTestId("me-login")).hasText("ines");
        assertThat(page.getByTestId("me-forge")).containsText("vinculada (ines-gh)");
        TestingBrowser.screenshot(page, "forge-signed-in");
    }

    @Test
    void anInvitationIsCompletedByLinkingTheForgeAccount() {
        IssuedLink invitation = web.klave.accounts().createPerson(
                new NewPerson(new Login("jon"), Optional.empty(), Optional.empty(), false, false), Optional.empty());
        long forgeId = forge.createUser("jon-on-forge");
        forge.addMember(forgeId);
        forge.consentAs(forgeId);
        Page page = browser.open(web.baseUrl);

        page.navigate(invitation.link().substring(web.baseUrl.length()));
        button(page, "Vincular con Forge").click();

        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Mi cuenta"))).isVisible();
        assertThat(page.getByTestId("me-forge")).containsText("vinculada (jon-on-forge)");
        Optional<Long> stored = web.klave.identities()
                .findFor(invitation.subject().id(), IdentityProvider.FORGE).map(identity -> identity.key().forgeId());
        org.assertj.core.api.Assertions.assertThat(stored).contains(forgeId);
    }

    @Test
    void aCancelledSignInIsExplainedOnTheLoginPage() {
        forge.denyConsent();
        Page page = browser.open(web.baseUrl);
        page.navigate("/login");

        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Entrar con Forge (acme)")).click();

        assertThat(page).hasURL(web.baseUrl + "/login?error=denied");
        assertThat(page.getByRole(AriaRole.ALERT)).containsText("Has cancelado el acceso en Forge.");
        TestingBrowser.screenshot(page, "forge-denied");
    }

    @Test
    void anAdministratorSeesTheForgePanelAndUnlinksAPerson() {
        long adminForgeId = linked("root-forge", true);
        linked("kim", false);
        web.klave.hooks().syncForgeMembers();
        forge.consentAs(adminForgeId);
        Page page = browser.open(web.baseUrl);
        signInWithForge(page);
        page.navigate("/admin/usuarios");

        Locator panel = page.getByTestId("forge-status");
        assertThat(panel).containsText("acme");
        assertThat(panel).containsText("activo");
        assertThat(page.getByTestId("forge-last-sync")).containsText("0 deshabilitados");
        assertThat(page.getByTestId("forge-kim")).containsText("kim-gh");
        TestingBrowser.screenshot(page, "admin-usuarios-forge");

        AdminJourneyBrowserTest.rowAction(page, "kim", "Desvincular de Forge a kim");
        page.getByRole(AriaRole.DIALOG).getByRole(AriaRole.BUTTON,
                new Locator.GetByRoleOptions().setName("Desvincular").setExact(true)).click();

        assertThat(page.locator(".toasts")).containsText("kim desvinculado de Forge.");
        assertThat(page.getByTestId("forge-kim")).hasCount(0);
    }

    @Test
    void aSignedInPersonLinksTheirOwnAccountFromMyAccount() {
        IssuedLink invitation = web.klave.accounts().createPerson(
                new NewPerson(new Login("lia"), Optional.empty(), Optional.empty(), false, false), Optional.empty());
        long forgeId = forge.createUser("lia-on-forge");
        forge.addMember(forgeId);
        forge.consentAs(forgeId);
        Page page = browser.open(web.baseUrl);
        // Signed in some other way before the forge was linked (a session opened as a password would).
        page.context().addCookies(java.util.List.of(new com.microsoft.playwright.options.Cookie("service_session",
                web.klave.hooks().openSession(invitation.subject()).cookieValue())
                .setUrl(web.baseUrl)));
        page.navigate("/mi-cuenta");
        assertThat(page.getByTestId("me-forge")).containsText("sin vincular");

        page.getByTestId("link-forge").click();

        assertThat(page).hasURL(web.baseUrl + "/mi-cuenta?forge=linked");
        assertThat(page.getByRole(AriaRole.STATUS).filter(new Locator.FilterOptions()
                .setHasText("Cuenta de Forge vinculada"))).isVisible();
        assertThat(page.getByTestId("me-forge")).containsText("vinculada (lia-on-forge)");
        TestingBrowser.screenshot(page, "mi-cuenta-forge-vinculada");
    }
}
