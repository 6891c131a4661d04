package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.testing.TestingOidcProvider;
import dev.klave.testing.TestingPeople;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Sign-in through an OIDC provider in Chromium (spec 2 §1): the login screen's button, the
 * provider's own login page, back signed in, and /mi-cuenta showing the identity; a refusal
 * explained with the provider's name and the account picker on offer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OidcSignInBrowserTest {
    private TestingOidcProvider provider;
    private WebKlave web;
    private TestingBrowser browser;

    @BeforeAll
    void start() {
        provider = TestingOidcProvider.start(true);
        java.util.Map<String, String> settings = new java.util.HashMap<>(provider.settings("example.com"));
        settings.put("SERVICE_ACCESS_CONTACT", "Pide acceso en #plataforma");
        web = WebKlave.start(Optional.empty(), settings);
        browser = TestingBrowser.launch();
    }

    @AfterAll
    void stop() {
        TestingBrowser.closeAll(browser, web, provider);
    }

    private static void atTheProvider(Page page, String subject, String email) {
        page.locator("input[name=username]").fill(subject);
        page.locator("textarea[name=claims]").fill("{\"email\": \"" + email + "\", \"email_verified\": true}");
        page.locator("input[type=submit]").click();
    }

    @Test
    void theButtonGoesThroughTheProvidersLoginPageAndMyAccountShowsTheIdentity() {
        web.klave.accounts().createPerson(new NewPerson(new Login("mara"), Optional.empty(),
                Optional.of("mara@example.com"), false, false), Optional.empty());
        Page page = browser.open(web.baseUrl);
        page.navigate("/login");

        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Entrar con Acme SSO")).click();
        atTheProvider(page, "mara-at-acme", "mara@example.com");

        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Mi cuenta"))).isVisible();
        page.navigate("/mi-cuenta");
        assertThat(page.getByTestId("me-login")).hasText("mara");
        assertThat(page.getByTestId("me-oidc")).containsText("vinculada (mara@example.com)");
        TestingBrowser.screenshot(page, "oidc-mi-cuenta");
    }

    @Test
    void anAddressNoAccountHasIsExplainedWithTheContactAndAnotherAccountOnOffer() {
        Page page = browser.open(web.baseUrl);
        page.navigate("/login");

        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Entrar con Acme SSO")).click();
        atTheProvider(page, "stranger", "stranger@example.com");

        assertThat(page).hasURL(web.baseUrl + "/login?error=unknown_account");
        assertThat(page.locator("#oidc-unknown_account")).containsText("Ninguna cuenta de Klave tiene ese correo.");
        assertThat(page.getByTestId("access-contact")).hasText("Pide acceso en #plataforma");
        assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Probar con otra cuenta")))
                .hasAttribute("href", "/api/auth/oidc/login?prompt=select_account");
        TestingBrowser.screenshot(page, "oidc-unknown-account");

        // The request that reaches the provider asks for its account picker.
        com.microsoft.playwright.Request authorize = page.waitForRequest(
                request -> request.url().startsWith(provider.issuer()) && request.url().contains("/authorize"),
                () -> page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Probar con otra cuenta")).click());
        org.assertj.core.api.Assertions.assertThat(authorize.url()).contains("prompt=select_account");
    }

    /** The consent page of an agent's login (spec 3 §4), as /oauth/authorize sends a browser to it. */
    private String consentPage() {
        String redirect = "http://127.0.0.1:33418/callback";
        String registered = web.http.send("POST", "/oauth/register", "{\"redirect_uris\":[\"" + redirect
                + "\"],\"client_name\":\"Agente\"}", "Content-Type", "application/json").body();
        String client = registered.replaceAll("(?s).*\"client_id\":\"([^\"]+)\".*", "$1");
        java.net.http.HttpResponse<String> authorized = web.http.get("/oauth/authorize?response_type=code&client_id="
                + client + "&redirect_uri=" + java.net.URLEncoder.encode(redirect, java.nio.charset.StandardCharsets.UTF_8)
                + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=s"
                + "&resource=" + java.net.URLEncoder.encode(web.baseUrl + "/mcp", java.nio.charset.StandardCharsets.UTF_8));
        String location = authorized.headers().firstValue("Location").orElseThrow();
        return location.substring(location.indexOf("/agents/authorize/"));
    }

    @Test
    void signingInThroughTheProviderFromTheConsentPageComesBackToIt() {
        web.klave.accounts().createPerson(new NewPerson(new Login("pilar"), Optional.empty(),
                Optional.of("pilar@example.com"), false, false), Optional.empty());
        String consent = consentPage();
        String next = java.net.URLEncoder.encode(consent, java.nio.charset.StandardCharsets.UTF_8);
        Page page = browser.open(web.baseUrl);
        page.navigate(consent);

        // Someone else first: the failure keeps the way back, and so does trying another account.
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Entrar con Acme SSO")).click();
        atTheProvider(page, "stranger-2", "stranger-2@example.com");
        assertThat(page).hasURL(web.baseUrl + "/login?error=unknown_account&next=" + next);
        assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Probar con otra cuenta")))
                .hasAttribute("href", "/api/auth/oidc/login?prompt=select_account&next=" + next);

        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Entrar con Acme SSO")).click();
        atTheProvider(page, "pilar-at-acme", "pilar@example.com");

        assertThat(page).hasURL(web.baseUrl + consent);
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Autorizar a un agente")))
                .isVisible();
        assertThat(page.getByTestId("consent-client-name")).hasText("Agente");
    }

    /** Spec 2 §7: {name} is OIDC_DISPLAY_NAME, and a provider that is off is never named. */
    @Test
    void onlyTheProviderThatIsOnIsNamedByItsDisplayName() {
        web.klave.accounts().createPerson(new NewPerson(new Login("nora"), Optional.empty(),
                Optional.of("nora@example.com"), false, false), Optional.empty());
        TestingPeople.signUp(web.klave, "jefa", true, true);
        Page page = browser.open(web.baseUrl);
        page.navigate("/login?error=denied");
        assertThat(page.locator("#oidc-denied")).hasText("Has cancelado el acceso con Acme SSO.");
        assertThat(page.locator("main")).not().containsText("Forge");

        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Entrar con Acme SSO")).click();
        atTheProvider(page, "nora-at-acme", "nora@example.com");
        page.navigate("/mi-cuenta");
        assertThat(page.getByTestId("no-password")).hasText("Esta cuenta entra con Acme SSO: no usa contraseña.");
        assertThat(page.locator("main")).not().containsText("Forge");
        assertThat(page.locator("main")).not().containsText("OIDC");

        Page admin = browser.open(web.baseUrl);
        AdminJourneyBrowserTest.signIn(admin, "jefa");
        admin.navigate("/admin/usuarios");
        assertThat(admin.getByTestId("oidc-nora")).hasText("Acme SSO: nora@example.com");
        admin.getByTestId("more-nora").click();
        assertThat(admin.getByRole(AriaRole.MENUITEM, new Page.GetByRoleOptions().setName("Desvincular Acme SSO de nora")))
                .isVisible();
        assertThat(admin.locator("main")).not().containsText("OIDC:");

        // Unlinked after signing in: no way in any more, which is not a pending invitation.
        admin.getByRole(AriaRole.MENUITEM, new Page.GetByRoleOptions().setName("Desvincular Acme SSO de nora")).click();
        admin.getByRole(AriaRole.DIALOG).getByRole(AriaRole.BUTTON, new com.microsoft.playwright.Locator.GetByRoleOptions()
                .setName("Desvincular").setExact(true)).click();
        assertThat(admin.getByTestId("no-way-in-nora")).hasText("sin forma de entrar: necesita un enlace nuevo");
        assertThat(admin.getByTestId("subject-nora")).not().containsText("invitación pendiente");
    }

    @Test
    void anInvitationLinkedThroughTheProviderSaysSoOnArrival() {
        String token = TestingPeople.invite(web.klave, "olga", false);
        Page page = browser.open(web.baseUrl);
        page.navigate("/cuenta#" + token);

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Vincular con Acme SSO y entrar")).click();
        atTheProvider(page, "olga-at-acme", "olga@example.com");

        assertThat(page.getByTestId("provider-linked")).hasText("Cuenta de Acme SSO vinculada: desde ahora entras con ella.");
        TestingBrowser.screenshot(page, "oidc-invitacion-vinculada");
    }
}
