package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.nav;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.SelectOption;
import dev.klave.testing.TestingActionsIssuer;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A bot and its CI job set up from the web, end to end: the bot, its grant, a trust rule, the
 * job's exchange with the CI issuer of the tests, the bot's credential in the administrators'
 * credentials view, revoked there with a reason; a credential issued for the bot by hand; and the
 * trust rule form's guidance (full refs, no twin rules, each rule's own workflow).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BotsAndCiBrowserTest {
    private TestingActionsIssuer issuer;
    private WebKlave web;
    private TestingBrowser browser;
    private String admin;

    @BeforeAll
    void start() {
        issuer = TestingActionsIssuer.start(new TestingClock());
        web = WebKlave.start(Optional.empty(), Map.of("SERVICE_CI_ISSUER", issuer.issuer()));
        browser = TestingBrowser.launch();
        admin = TestingPeople.signUp(web.klave, "root", true);
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
    }

    @AfterAll
    void stop() {
        TestingBrowser.closeAll(browser, web, issuer);
    }

    @Test
    void aBotIsSetUpFromTheWebAndItsCiCredentialRevokedThere() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");

        nav(page, "Usuarios");
        page.getByRole(AriaRole.RADIO, new Page.GetByRoleOptions().setName("Bot")).check();
        page.getByLabel("Login").fill("deployer");
        button(page, "Crear bot").click();
        assertThat(page.getByTestId("subject-deployer")).containsText("bot");

        nav(page, "Permisos");
        page.getByLabel("Usuario").first().selectOption(new SelectOption().setLabel("deployer (bot)"));
        page.getByLabel("Cluster").first().selectOption("prod-1");
        page.getByLabel("Nivel").selectOption("edit");
        page.getByLabel("Ámbito").selectOption("team-a");
        button(page, "Conceder permiso").click();
        assertThat(page.locator("tbody tr", new Page.LocatorOptions().setHasText("deployer"))).containsText("activo");

        nav(page, "CI");
        assertThat(page.getByTestId("ci-audience")).hasText(web.baseUrl);
        assertThat(page.getByTestId("ci-exchange-url")).hasText(web.baseUrl + "/v1/ci/forge-actions/token");
        page.getByLabel("Nombre", new Page.GetByLabelOptions().setExact(true)).fill("deploy desde main");
        page.getByLabel("Bot").selectOption(new SelectOption().setLabel("deployer"));
        page.getByLabel("Id del propietario").fill(Long.toString(TestingActionsIssuer.OWNER_ID));
        page.getByLabel("Id del repositorio").fill(Long.toString(TestingActionsIssuer.REPOSITORY_ID));
        page.getByLabel("Ref (vacío: cualquiera)").fill("refs/heads/main");
        button(page, "Crear trust rule").click();
        assertThat(page.getByTestId("rule-deploy desde main")).containsText("deployer");
        String workflow = page.getByTestId("ci-workflow").inputValue();
        org.assertj.core.api.Assertions.assertThat(workflow).contains("KLAVE=" + web.baseUrl).contains("id-token: write")
                .contains(web.baseUrl + "/v1/ci/forge-actions/token");
        TestingBrowser.screenshot(page, "admin-ci");

        // The CI job trades its ID token for the bot's credential.
        HttpResponse<String> exchanged = web.http.send("POST", "/v1/ci/forge-actions/token",
                "{\"token\":\"" + issuer.sign(issuer.claims(web.baseUrl)) + "\"}");
        org.assertj.core.api.Assertions.assertThat(exchanged.statusCode()).as(exchanged.body()).isEqualTo(201);

        nav(page, "Credenciales");
        page.getByLabel("Titular").selectOption(new SelectOption().setLabel("deployer"));
        assertThat(page).hasURL(java.util.regex.Pattern.compile("/admin/credenciales\\?owner="));
        Locator row = page.getByTestId("all-credentials").locator("tbody tr");
        assertThat(row).hasCount(1);
        assertThat(row).containsText("forge-actions");
        assertThat(row).containsText("acme/deploy@refs/heads/main");
        TestingBrowser.screenshot(page, "admin-credenciales");
        row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Revocar credencial")).click();
        page.getByRole(AriaRole.DIALOG).getByLabel("Motivo (opcional)").fill("el trabajo terminó");
        page.getByRole(AriaRole.DIALOG).getByRole(AriaRole.BUTTON,
                new Locator.GetByRoleOptions().setName("Revocar").setExact(true)).click();
        assertThat(row).containsText("revocada");
        assertThat(row).containsText("el trabajo terminó");
        JsonNode credentials = web.expect(200, "GET", "/api/credentials", null, admin);
        for (JsonNode credential : credentials) {
            if (credential.get("subject_login").asText().equals("deployer")) {
                org.assertj.core.api.Assertions.assertThat(credential.get("status").asText()).isEqualTo("revoked");
            }
        }
    }

    @Test
    void theTrustRuleFormGuidesTheRefRefusesATwinAndEachRuleShowsItsOwnWorkflow() {
        web.expect(201, "POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"releaser\"}", admin);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        nav(page, "CI");
        Locator ref = page.getByLabel("Ref (vacío: cualquiera)");
        Locator failure = page.getByRole(AriaRole.ALERT);

        // A short ref could never match the job's claim (spec 1 §4 "CI exchange rules" 2): the form
        // offers the full form, and the server refuses it if sent anyway.
        fillRule(page, "release", "main", "production");
        assertThat(page.getByTestId("ref-hint")).containsText("«main» no coincidiría nunca");
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        button(page, "Crear trust rule").click();
        // The server's words, with its field named as the form's label.
        assertThat(failure).hasText("«Ref» no válido: usa la forma completa, p. ej. refs/heads/main");
        TestingBrowser.screenshot(page, "admin-ci-ref-hint");
        assertThat(page.getByTestId("rule-release")).hasCount(0);
        button(page, "Usar refs/heads/main").click();
        assertThat(ref).hasValue("refs/heads/main");
        assertThat(page.getByTestId("ref-hint")).hasCount(0);
        button(page, "Crear trust rule").click();
        assertThat(page.getByTestId("rule-release")).containsText("refs/heads/main");
        assertThat(page.getByTestId("rule-release")).containsText("production");

        // The rule's own workflow keeps its environment and ref after the form is cleared.
        org.assertj.core.api.Assertions.assertThat(page.getByTestId("ci-workflow").inputValue())
                .doesNotContain("environment:");
        Locator show = page.getByRole(AriaRole.BUTTON,
                new Page.GetByRoleOptions().setName("Ver workflow de la trust rule release"));
        assertThat(show).hasAttribute("aria-expanded", "false");
        show.click();
        assertThat(show).hasAttribute("aria-expanded", "true");
        String own = page.getByTestId("rule-workflow-release").inputValue();
        org.assertj.core.api.Assertions.assertThat(own)
                .contains("    if: github.ref == 'refs/heads/main'\n    runs-on: ubuntu-latest\n"
                        + "    environment: production\n")
                .contains("KLAVE=" + web.baseUrl).contains(web.baseUrl + "/v1/ci/forge-actions/token");
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        TestingBrowser.screenshot(page, "admin-ci-rule-workflow");

        // The same rule under another name changes nothing: refused, naming the one that exists.
        fillRule(page, "release again", "refs/heads/main", "production");
        button(page, "Crear trust rule").click();
        assertThat(failure).hasText("Ya hay una trust rule igual: «release»");
        assertThat(page.getByTestId("rule-release again")).hasCount(0);
    }

    private static void fillRule(Page page, String name, String ref, String environment) {
        page.getByLabel("Nombre", new Page.GetByLabelOptions().setExact(true)).fill(name);
        page.getByLabel("Bot").selectOption(new SelectOption().setLabel("releaser"));
        page.getByLabel("Id del propietario").fill("4242");
        page.getByLabel("Id del repositorio").fill("777");
        page.getByLabel("Ref (vacío: cualquiera)").fill(ref);
        page.getByLabel("Entorno (vacío: cualquiera)").fill(environment);
    }

    /** Spec 3 §4 "Write approval flow": a bot's writes-need-approval setting, on its edit form. */
    @Test
    void aBotsWritesAreMadeToNeedApprovalFromItsEditForm() {
        web.expect(201, "POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"agente\"}", admin);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");
        Locator row = page.getByTestId("subject-agente");
        assertThat(page.getByTestId("approval-agente")).hasCount(0);

        button(page, "Editar agente").click();
        Locator approval = page.getByLabel("Las escrituras necesitan aprobación");
        assertThat(approval).not().isChecked();
        assertThat(approval).hasAccessibleDescription(java.util.regex.Pattern.compile("espera a que un administrador"));
        // A bot has neither e-mail nor role (spec 1 §2): its form does not offer them.
        Locator form = page.locator("tr.row-editor");
        assertThat(form.getByLabel("Nombre visible")).isVisible();
        assertThat(form.getByLabel("Correo")).hasCount(0);
        assertThat(form.getByLabel("Administrador", new Locator.GetByLabelOptions().setExact(true))).hasCount(0);
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        TestingBrowser.screenshot(page, "admin-usuarios-bot-aprobacion");
        approval.check();
        button(page, "Guardar cambios").click();

        assertThat(page.locator(".toasts")).containsText("agente actualizado.");
        assertThat(row).containsText("escrituras con aprobación");
        org.assertj.core.api.Assertions.assertThat(approvalOf("agente")).isTrue();

        button(page, "Editar agente").click();
        assertThat(page.getByLabel("Las escrituras necesitan aprobación")).isChecked();
        page.getByLabel("Las escrituras necesitan aprobación").uncheck();
        button(page, "Guardar cambios").click();
        assertThat(page.getByTestId("approval-agente")).hasCount(0);
        org.assertj.core.api.Assertions.assertThat(approvalOf("agente")).isFalse();
    }

    private boolean approvalOf(String login) {
        for (JsonNode subject : web.expect(200, "GET", "/api/subjects", null, admin)) {
            if (subject.get("login").asText().equals(login)) {
                return subject.get("writes_need_approval").asBoolean();
            }
        }
        throw new AssertionError("no subject " + login);
    }

    @Test
    void anAdministratorIssuesACredentialForABot() {
        web.expect(201, "POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"backup\"}", admin);
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + web.idOf(admin, "backup")
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"team-a\"}", admin);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/credenciales");

        page.locator("select[name=subject]").selectOption(new SelectOption().setLabel("backup (bot)"));
        page.getByLabel("Duración").selectOption("90d");
        page.getByLabel("Nombre", new Page.GetByLabelOptions().setExact(true)).fill("copias nocturnas");
        button(page, "Emitir credencial").click();

        assertThat(page.getByTestId("issued-token")).hasValue(java.util.regex.Pattern.compile("^klt_"));
        button(page, "Ya lo he guardado").click();
        assertThat(page.getByTestId("all-credentials")).containsText("copias nocturnas");
        assertThat(page.getByTestId("all-credentials")).containsText("backup");
        page.navigate("/admin/usuarios");
        assertThat(page.getByTestId("credentials-of-backup")).hasText("Credenciales (1)");
    }
}
