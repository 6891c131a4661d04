package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.audit.AuditRow;
import dev.klave.audit.Channel;
import dev.klave.testing.TestingAuditRows;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingPeople;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every screen at a phone's width (390×844) and a laptop's (1366×850): no page wider than the
 * screen — on a phone tables are cards, every row's actions in view, and filters fold behind one
 * button — and the confirmation dialog whole on the screen; axe-core finds no violation of any
 * level on any of them. Screenshots of each, at both widths, go to {@code target/screenshots/}.
 */
class NarrowScreensBrowserTest extends BrowserTestBase {
    private static final List<String> ADMIN_SCREENS = List.of("/mi-cuenta", "/admin/usuarios", "/admin/clusters",
            "/admin/clusters/prod-1", "/admin/permisos", "/admin/auditoria", "/admin/auditoria?vista=eventos",
            "/admin/credenciales", "/admin/ci", "/admin/instalacion", "/agentes");

    @BeforeAll
    void someContent() {
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
        TestingPeople.signUp(web.klave, "una-persona-con-un-login-bastante-largo", false);
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + web.idOf(admin, "root")
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"team-a\"}", admin);
        var issued = web.expect(201, "POST", "/api/credentials", "{\"ttl\":\"12h\",\"name\":\"portátil de trabajo\","
                + "\"note\":\"una nota larga para ver cómo se parte en una pantalla estrecha\"}", admin);
        for (int i = 0; i < 3; i++) {
            web.klave.http().get("/clusters/prod-1/api/v1/namespaces/team-a/pods", "Authorization",
                    "Bearer " + issued.get("token").asText());
        }
        // A tool's request with the longest session id (64 characters) must break, not widen the page.
        java.time.Instant now = java.time.Instant.now();
        AuditRow.Actor root = new AuditRow.Actor(Optional.of(web.idOf(admin, "root")), Optional.of("root"),
                Optional.empty(), Optional.empty());
        AuditRow.Request listed = TestingAuditRows.through(TestingAuditRows.request("list", "team-a", "pods",
                "/api/v1/namespaces/team-a/pods"), Channel.tool("list_resources", "s".repeat(64)));
        new dev.klave.store.JdbiAuditStore(web.klave.klave().database()).write(List.of(AuditRow.opened(
                java.util.UUID.randomUUID().toString(), now, root, "prod-1", listed)
                .ended(TestingAuditRows.answered(200, now))), List.of());
        // A name of 200 characters without a space (the longest a trust rule takes) must break, not widen the page.
        web.expect(201, "POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"despliegues\"}", admin);
        web.expect(201, "POST", "/api/ci/trust-rules", "{\"name\":\"" + "n".repeat(200) + "\",\"bot_subject_id\":\""
                + web.idOf(admin, "despliegues") + "\",\"repository_owner_id\":1,\"repository_id\":2}", admin);
    }

    /**
     * On a phone, every row's buttons and links are inside the screen (no sideways scroll to reach
     * "Revocar"), and the filters of a listing are folded until asked for.
     */
    private static void rowActionsInView(Page page, String screen) {
        for (com.microsoft.playwright.Locator action : page.locator("tbody tr").locator("button, a.button").all()) {
            action.scrollIntoViewIfNeeded();
            var box = action.boundingBox();
            org.assertj.core.api.Assertions.assertThat(box.x).as("%s: %s starts off the screen", screen,
                    action.textContent()).isGreaterThanOrEqualTo(0);
            org.assertj.core.api.Assertions.assertThat(box.x + box.width).as("%s: %s ends off the screen", screen,
                    action.textContent()).isLessThanOrEqualTo(390);
        }
        for (com.microsoft.playwright.Locator filters : page.locator(".filter-panel details").all()) {
            org.assertj.core.api.Assertions.assertThat(filters.getAttribute("open")).as("%s: filters folded", screen)
                    .isNull();
        }
    }

    private static void fitsTheScreen(Page page, String screen) {
        page.waitForLoadState();
        page.getByRole(AriaRole.HEADING).first().waitFor();
        Object width = page.evaluate("() => document.documentElement.scrollWidth");
        Object screenWidth = page.evaluate("() => window.innerWidth");
        org.assertj.core.api.Assertions.assertThat(((Number) width).intValue()).as(screen + " is wider than the screen")
                .isLessThanOrEqualTo(((Number) screenWidth).intValue());
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).as(screen).isEmpty();
    }

    private static String name(String screen) {
        return screen.replaceAll("^/", "").replaceAll("[^a-z0-9]+", "-");
    }

    @Test
    void noScreenIsWiderThanAPhoneOrFailsAnAccessibilityCheck() {
        for (int[] size : new int[][] {{390, 844}, {1366, 850}}) {
            Page page = browser.open(web.baseUrl, size[0], size[1]);
            page.navigate("/cuenta#" + TestingPeople.invite(web.klave, "invitada-" + size[0], false));
            fitsTheScreen(page, "/cuenta");
            TestingBrowser.screenshot(page, "cuenta-" + size[0]);
            page.navigate("/login");
            fitsTheScreen(page, "/login");
            TestingBrowser.screenshot(page, "login-" + size[0]);
            signIn(page, "root");
            for (String screen : ADMIN_SCREENS) {
                page.navigate(screen);
                fitsTheScreen(page, screen + " at " + size[0]);
                if (size[0] == 390) {
                    rowActionsInView(page, screen);
                }
                TestingBrowser.screenshot(page, name(screen) + "-" + size[0]);
            }
        }
    }

    @Test
    void theRevokeDialogIsWholeOnAPhone() {
        Page page = browser.open(web.baseUrl, 390, 844);
        signIn(page, "root");
        page.navigate("/mi-cuenta");

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Revocar credencial portátil de trabajo"))
                .click();

        var box = page.getByRole(AriaRole.DIALOG).boundingBox();
        org.assertj.core.api.Assertions.assertThat(box.x).isGreaterThanOrEqualTo(0);
        org.assertj.core.api.Assertions.assertThat(box.x + box.width).isLessThanOrEqualTo(390);
        assertThat(page.getByRole(AriaRole.DIALOG).getByRole(AriaRole.BUTTON,
                new com.microsoft.playwright.Locator.GetByRoleOptions().setName("Revocar").setExact(true))).isInViewport();
        TestingBrowser.screenshot(page, "mi-cuenta-revocar-390");
    }

    @Test
    void myAccountPutsTheCredentialFirstKeepsAccentsAndWarnsBeforeLeavingAShownToken() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/mi-cuenta");
        page.getByLabel("Nombre", new Page.GetByLabelOptions().setExact(true)).fill("portátil");
        AdminJourneyBrowserTest.button(page, "Emitir credencial").click();

        assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions()
                .setName("Descargar klave-portátil.kubeconfig"))).isVisible();
        assertThat(page.getByTestId("issued-credential")).containsText("kubectl get namespaces");
        // A page leaving now is asked to stay: the handler cancels the unload (what makes the browser ask).
        String leave = "() => { const event = new Event('beforeunload', { cancelable: true });"
                + " window.dispatchEvent(event); return event.defaultPrevented; }";
        org.assertj.core.api.Assertions.assertThat(page.evaluate(leave)).isEqualTo(true);
        AdminJourneyBrowserTest.button(page, "Ya lo he guardado").click();
        assertThat(page.getByTestId("issued-credential")).isHidden();
        // The listener goes with the panel; the framework may finish unmounting a moment after the DOM changed.
        page.waitForFunction("() => { const event = new Event('beforeunload', { cancelable: true });"
                + " window.dispatchEvent(event); return !event.defaultPrevented; }");
    }

    @Test
    void withoutGrantsIssuingIsOffAndSaysWhy() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "una-persona-con-un-login-bastante-largo");
        page.navigate("/mi-cuenta");

        assertThat(page.getByTestId("issue-blocked")).containsText("pide acceso");
        assertThat(page.getByTestId("session-expiry")).containsText("termina el");
        assertThat(AdminJourneyBrowserTest.button(page, "Emitir credencial")).isDisabled();
    }

    @Test
    void theClusterPageShowsWhoCanReachItAndLinksToItsAudit() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/clusters/prod-1");

        com.microsoft.playwright.Locator access = page.locator("section", new Page.LocatorOptions().setHas(
                page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Accesos"))));
        assertThat(access).containsText("root");
        assertThat(access).containsText("ver (solo lectura)");
        assertThat(access.getByRole(AriaRole.LINK, new com.microsoft.playwright.Locator.GetByRoleOptions()
                .setName("Ver la auditoría de este cluster"))).hasAttribute("href", "/admin/auditoria?cluster=prod-1");
    }
}
