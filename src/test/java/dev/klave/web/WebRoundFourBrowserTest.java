package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.ColorScheme;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.audit.AuditRow;
import dev.klave.audit.Channel;
import dev.klave.cluster.ClusterId;
import dev.klave.access.Permission;
import dev.klave.store.JdbiAuditStore;
import dev.klave.testing.TestingAgentLogin;
import dev.klave.testing.TestingAuditRows;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fourth walk of the interface (issue 40), each item as a person meets it, at 1366 and 390 px,
 * axe in the light and the dark scheme: decisions that wait are counted where the decider looks,
 * the audit pages by cursor with periods and a chart, long names wrap and a user's row keeps its
 * secondary actions in a menu, the consent page says how long access lasts, agent sessions read as
 * client and person, the words of the agent screens, the account page's agent lines, the
 * installation's checks, dark mode.
 */
class WebRoundFourBrowserTest extends BrowserTestBase {
    private static final int DESKTOP = 1366;
    private static final int PHONE = 390;
    private static final String LONG_NAME = "Ñ".repeat(20) + "x".repeat(180);

    private HeldRequests bot;
    private String rootId;

    @BeforeAll
    void aBotWhoseWritesWaitAndAPersonWithALongName() {
        bot = HeldRequests.ofNewBot(web, admin, "vigilante");
        rootId = web.expect(200, "GET", "/api/me", null, admin).get("id").asText();
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + rootId + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"team-a\"}", admin);
        web.expect(201, "POST", "/api/subjects", "{\"kind\":\"person\",\"login\":\"largo\",\"display_name\":\""
                + LONG_NAME + "\"}", admin);
    }

    private Page signedIn(int width, ColorScheme scheme) {
        Page page = browser.open(web.baseUrl, width, 900, scheme);
        signIn(page, "root");
        return page;
    }

    private static void noViolations(Page page, String where) {
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).as(where).isEmpty();
    }

    /** Item 1: what waits is counted on "Agentes", in the title and on landing, and drops once decided. */
    @Test
    void decisionsThatWaitAreCountedInTheMenuTheTitleAndABannerAndDropWhenDecided() {
        List<String> writes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            writes.add(bot.holdScale());
        }
        bot.requestAccess();
        for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
            for (int width : List.of(DESKTOP, PHONE)) {
                Page page = signedIn(width, scheme);
                assertThat(page.getByTestId("waiting-count")).containsText("6");
                assertThat(page.getByTestId("waiting-banner"))
                        .containsText("Esperan tu decisión 5 escrituras y 1 solicitud de acceso de agentes");
                assertThat(page).hasTitle(Pattern.compile("^\\(6\\) Mi cuenta · Klave$"));
                // The decider's account page lists what waits, the bot's requests included.
                assertThat(page.getByTestId("own-agent-requests").getByRole(AriaRole.LISTITEM)).hasCount(6);
                assertThat(page.getByTestId("own-agent-requests")).containsText("el bot vigilante");
                noViolations(page, "/mi-cuenta with decisions waiting, " + width + " px, " + scheme);
                TestingBrowser.screenshot(page, "mi-cuenta-decisiones-" + width + "-" + scheme.name().toLowerCase());
            }
        }
        Page page = signedIn(DESKTOP, ColorScheme.LIGHT);
        page.navigate("/agents/requests/" + writes.get(0));
        button(page, "Aprobar").click();
        page.getByRole(AriaRole.DIALOG).getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Aprobar")
                .setExact(true)).click();
        assertThat(page.getByTestId("request-state")).containsText("Aprobada por root");
        // Counted again at once, no reload: the decision made here asks for the count.
        assertThat(page.getByTestId("waiting-count")).containsText("5");
        assertThat(page).hasTitle(Pattern.compile("^\\(5\\) "));
        for (String id : writes.subList(1, writes.size())) {
            web.expect(200, "POST", "/api/agents/requests/" + id + "/deny", "{}", admin);
        }
    }

    private void writeRows(String cluster, Instant first, int count) {
        List<AuditRow> rows = new ArrayList<>();
        // Ana by her login alone, as rows written by hand name her.
        AuditRow.Actor ana = new AuditRow.Actor(Optional.empty(), Optional.of("ana"), Optional.empty(),
                Optional.empty());
        for (int i = 0; i < count; i++) {
            Instant at = first.plusSeconds(i);
            AuditRow.Request request = TestingAuditRows.request(i % 10 == 0 ? "delete" : "get", "team-a", "pods",
                    "web-" + i, "/api/v1/namespaces/team-a/pods/web-" + i);
            rows.add(AuditRow.opened(UUID.randomUUID().toString(), at, ana, cluster, request)
                    .ended(TestingAuditRows.answered(i % 10 == 0 ? 403 : 200, at)));
        }
        new JdbiAuditStore(web.klave.klave().database()).write(rows, List.of());
    }

    /** Item 2: "Siguiente" follows the cursor, so rows arriving meanwhile never repeat a row on the next page. */
    @Test
    void theAuditPagesByCursorWithPeriodsAChartAndWordsForWhatTheAddressCarries() {
        Instant first = Instant.parse("2026-11-25T08:00:00Z");
        writeRows("paginas-1", first, 60);
        Page page = signedIn(DESKTOP, ColorScheme.LIGHT);
        page.navigate("/admin/auditoria?cluster=paginas-1&from=2026-11-25T07:00:00Z&to=2026-11-25T09:00:00Z");
        assertThat(page.getByTestId("audit-row")).hasCount(50);
        assertThat(page.getByTestId("activity-summary")).hasText(
                "60 peticiones en el periodo: 6 rechazadas y 0 con error; como mucho 60 por minuto.");
        assertThat(page.getByTestId("activity").locator("canvas").first()).isVisible();
        TestingBrowser.screenshot(page, "admin-auditoria-actividad");

        page.getByTestId("audit-next-page").click();
        assertThat(page).hasURL(Pattern.compile("cursor="));
        assertThat(page.getByTestId("audit-row")).hasCount(10);
        String firstOfSecond = page.getByTestId("audit-row").first().textContent();
        String address = page.url();
        // Twenty newer rows arrive; the shared address still shows the same page.
        writeRows("paginas-1", first.plusSeconds(600), 20);
        page.navigate(address);
        assertThat(page.getByTestId("audit-row")).hasCount(10);
        org.assertj.core.api.Assertions.assertThat(page.getByTestId("audit-row").first().textContent())
                .isEqualTo(firstOfSecond);
        page.getByTestId("audit-first-page").click();
        assertThat(page).not().hasURL(Pattern.compile("cursor="));

        // A verb in capitals finds the rows (verbs are stored in lower case).
        page.navigate("/admin/auditoria?cluster=paginas-1");
        page.getByLabel("Verbo").fill("DELETE");
        button(page, "Filtrar").click();
        assertThat(page).hasURL(Pattern.compile("verb=delete"));
        assertThat(page.getByTestId("audit-row")).not().hasCount(0);

        // An address parameter the screen does not know is said, not dropped silently.
        page.navigate("/admin/auditoria?cluster=paginas-1&pagina=2");
        assertThat(page.getByTestId("audit-unknown-parameters")).containsText("«pagina»");

        page.getByTestId("audit-preset").filter(new Locator.FilterOptions().setHasText("Última hora")).click();
        assertThat(page).hasURL(Pattern.compile("from=20"));
        noViolations(page, "/admin/auditoria");
    }

    /** The audit's cards at 390 px: three short lines, not four. */
    @Test
    void auditCardsAtPhoneWidthAreDense() {
        writeRows("densas-1", Instant.parse("2026-11-25T07:00:00Z"), 3);
        Page page = signedIn(PHONE, ColorScheme.LIGHT);
        page.navigate("/admin/auditoria?cluster=densas-1&from=2026-11-25T06:00:00Z");
        assertThat(page.getByTestId("audit-row")).hasCount(3);
        double height = page.getByTestId("audit-row").first().boundingBox().height;
        org.assertj.core.api.Assertions.assertThat(height).as("an audit card's height at 390 px").isLessThan(90);
        noViolations(page, "/admin/auditoria at 390 px");
        TestingBrowser.screenshot(page, "admin-auditoria-390");
    }

    /** Items 3 and 4: a 200-character name wraps; a row's secondary actions sit behind "⋯". */
    @Test
    void longNamesWrapAndAUsersSecondaryActionsLiveInAKeyboardMenu() {
        for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
            Page page = signedIn(DESKTOP, scheme);
            page.navigate("/admin/usuarios");
            Locator row = page.getByRole(AriaRole.ROW).filter(new Locator.FilterOptions().setHasText("largo"));
            assertThat(row).isVisible();
            // The long name wraps within its row; another row, with its actions, stays one line high.
            Locator plain = page.getByRole(AriaRole.ROW).filter(new Locator.FilterOptions().setHasText("vigilante"));
            Number wide = (Number) page.evaluate("document.documentElement.scrollWidth");
            org.assertj.core.api.Assertions.assertThat(wide.intValue()).as("the page's width").isLessThanOrEqualTo(DESKTOP);
            org.assertj.core.api.Assertions.assertThat(plain.boundingBox().height).as("a user's row").isLessThan(130);
            noViolations(page, "/admin/usuarios, " + scheme);
            TestingBrowser.screenshot(page, "admin-usuarios-" + scheme.name().toLowerCase());
        }
        Page page = signedIn(DESKTOP, ColorScheme.LIGHT);
        page.navigate("/admin/usuarios");
        Locator more = page.getByTestId("more-largo");
        more.click();
        Locator menu = page.getByRole(AriaRole.MENU);
        assertThat(menu).isVisible();
        noViolations(page, "the open row menu");
        // A full-page screenshot resizes the window, which closes the menu, as any resize does.
        TestingBrowser.screenshot(page, "admin-usuarios-menu");
        assertThat(menu).hasCount(0);
        more.focus();
        page.keyboard().press("Enter");
        assertThat(menu).isVisible();
        Locator disable = menu.getByRole(AriaRole.MENUITEM, new Locator.GetByRoleOptions().setName("Deshabilitar largo"));
        assertThat(disable).isFocused();
        page.keyboard().press("ArrowDown");
        assertThat(menu.getByRole(AriaRole.MENUITEM, new Locator.GetByRoleOptions().setName("Enlace nuevo para largo")))
                .isFocused();
        page.keyboard().press("End");
        assertThat(menu.getByRole(AriaRole.MENUITEM, new Locator.GetByRoleOptions().setName("Cerrar sesiones de largo")))
                .isFocused();
        page.keyboard().press("Home");
        assertThat(disable).isFocused();
        page.keyboard().press("Escape");
        assertThat(menu).hasCount(0);
        assertThat(more).isFocused();

        more.click();
        page.getByRole(AriaRole.MENUITEM, new Page.GetByRoleOptions().setName("Deshabilitar largo")).click();
        Locator dialog = page.getByRole(AriaRole.DIALOG);
        assertThat(dialog).isVisible();
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Cancelar")).click();
    }

    /** A public client registered as an agent registers itself (RFC 7591). */
    private JsonNode register(String name, String redirect) {
        java.net.http.HttpResponse<String> answer = web.http.send("POST", "/oauth/register", "{\"redirect_uris\":[\""
                + redirect + "\"],\"client_name\":\"" + name + "\"}", "Content-Type", "application/json");
        org.assertj.core.api.Assertions.assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(answer.body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A pending authorization of an agent, as /oauth/authorize leaves it: its consent page's path. */
    private String consentPage(String clientName) {
        String redirect = "http://127.0.0.1:33418/callback";
        JsonNode client = register(clientName, redirect);
        String query = TestingAgentLogin.form(new java.util.LinkedHashMap<>(java.util.Map.of(
                "response_type", "code", "client_id", client.get("client_id").asText(), "redirect_uri", redirect,
                "code_challenge", TestingAgentLogin.CHALLENGE, "code_challenge_method", "S256",
                "resource", web.baseUrl + "/mcp")));
        String location = web.http.get("/oauth/authorize?" + query).headers().firstValue("Location").orElseThrow();
        return URI.create(location).getPath();
    }

    /** Items 5 and 9: how long the agent keeps access; a denial is an event, in a sentence. */
    @Test
    void theConsentPageSaysHowLongAccessLastsAndADenialIsAnEvent() {
        for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
            for (int width : List.of(DESKTOP, PHONE)) {
                Page page = signedIn(width, scheme);
                page.navigate(consentPage("Claude Code"));
                assertThat(page.getByTestId("consent-duration")).containsText("(30 días) o hasta que termines su sesión");
                assertThat(page.getByTestId("consent-duration")).containsText("en cuanto tú pierdas el permiso");
                noViolations(page, "the consent page, " + width + " px, " + scheme);
                TestingBrowser.screenshot(page, "consentimiento-" + width + "-" + scheme.name().toLowerCase());
            }
        }
        Page page = signedIn(DESKTOP, ColorScheme.LIGHT);
        page.navigate(consentPage("Claude Code"));
        button(page, "Autorizar").click();
        assertThat(page.getByTestId("consent-error"))
                .hasText("Elige al menos un permiso para el agente, o deniega el acceso.");
        button(page, "Denegar").click();
        // The browser goes on to the agent's address (no agent listens here); the event is Klave's.
        dev.klave.testing.Eventually.until("agent.session_denied", java.time.Duration.ofSeconds(10), () -> web.expect(200,
                "GET", "/api/control-events?type=agent.session_denied", null, admin).get("events").size() > 0);

        Page events = signedIn(DESKTOP, ColorScheme.LIGHT);
        events.navigate("/admin/auditoria?vista=eventos");
        assertThat(events.getByText("root denegó el acceso a «Claude Code»").first()).isVisible();
    }

    /** Item 6: a tool's session reads as its client and its person; the id stays on hover and in the row. */
    @Test
    void agentSessionsReadAsClientAndPerson() {
        JsonNode client = register("Claude Code", "http://127.0.0.1:33418/callback");
        String session = web.klave.hooks().agentTokens().consent(new SubjectId(rootId),
                client.get("client_id").asText(), List.of(new Permission(new ClusterId("prod-1"), Tier.VIEW,
                        new Scope("team-a"))), true, "password", "http://127.0.0.1:33418/callback",
                TestingAgentLogin.CHALLENGE, opened -> { }).session().id();
        String id = UUID.randomUUID().toString();
        Instant at = Instant.parse("2026-11-25T06:30:00Z");
        AuditRow.Actor root = new AuditRow.Actor(Optional.of(rootId), Optional.of("root"), Optional.empty(),
                Optional.empty());
        AuditRow.Request logs = TestingAuditRows.through(TestingAuditRows.request("get", "team-a", "pods",
                "/api/v1/namespaces/team-a/pods"), Channel.tool("get_logs", session));
        new JdbiAuditStore(web.klave.klave().database()).write(List.of(AuditRow.opened(id, at, root, "sesiones-1",
                logs).ended(TestingAuditRows.answered(200, at))), List.of());
        Page page = signedIn(DESKTOP, ColorScheme.LIGHT);
        page.navigate("/admin/auditoria?cluster=sesiones-1&from=2026-11-25T06:00:00Z");
        assertThat(page.getByTestId("audit-session-name")).hasText("Claude Code · root");
        assertThat(page.getByTestId("audit-session-name")).hasAttribute("title", session);
        page.navigate("/admin/auditoria/" + id);
        assertThat(page.getByTestId("audit-session")).containsText("Claude Code · root");
        assertThat(page.getByTestId("audit-session")).containsText(session);
        noViolations(page, "an audit row of an agent's session");
        TestingBrowser.screenshot(page, "admin-auditoria-sesion-nombre");
    }

    /** Item 10: the credential form's cluster choice shows its whole text. */
    @Test
    void theCredentialFormsClusterChoiceIsNotCut() {
        Page page = signedIn(DESKTOP, ColorScheme.LIGHT);
        Locator select = page.locator("select[name=cluster]").first();
        assertThat(select).isVisible();
        Boolean fits = (Boolean) select.evaluate("""
                select => {
                  const probe = document.createElement('span');
                  probe.style.font = getComputedStyle(select).font;
                  probe.style.position = 'absolute';
                  probe.style.visibility = 'hidden';
                  probe.textContent = select.options[select.selectedIndex].text;
                  document.body.append(probe);
                  const fits = probe.offsetWidth + 32 <= select.clientWidth;
                  probe.remove();
                  return fits;
                }""");
        org.assertj.core.api.Assertions.assertThat(fits).as("the chosen option's text fits its select").isTrue();
    }

    /** Item 12: the account page gives this installation's /mcp and the lines to copy. */
    @Test
    void theAccountPageSaysHowToConnectAnAgent() {
        Page page = signedIn(PHONE, ColorScheme.DARK);
        assertThat(page.getByTestId("mcp-url")).hasText(web.baseUrl + "/mcp");
        assertThat(page.getByTestId("connect-claude")).hasValue("claude mcp add --transport http klave "
                + web.baseUrl + "/mcp");
        org.assertj.core.api.Assertions.assertThat(page.getByTestId("connect-vscode").inputValue())
                .contains("\"url\": \"" + web.baseUrl + "/mcp\"");
        noViolations(page, "/mi-cuenta at 390 px, dark");
        TestingBrowser.screenshot(page, "mi-cuenta-conectar-agente-390-dark");
    }

    /** Item 13: what is off is said once, not listed row after row as "no configurado". */
    @Test
    void theInstallationPageListsOnlyWhatIsOn() {
        Page page = signedIn(DESKTOP, ColorScheme.DARK);
        page.navigate("/admin/instalacion");
        assertThat(page.getByTestId("checks-off")).containsText("Desactivado en esta instalación:");
        assertThat(page.getByTestId("health")).not().containsText("no configurado");
        noViolations(page, "/admin/instalacion, dark");
        TestingBrowser.screenshot(page, "admin-instalacion-dark");
    }

    /** Every screen this round changed, at both widths and in both schemes: axe finds nothing, a screenshot of each. */
    @Test
    void everyChangedScreenPassesAxeAtBothWidthsInBothSchemes() {
        String request = bot.holdSecret();
        writeRows("pantallas-1", Instant.parse("2026-11-25T05:00:00Z"), 12);
        String consent = consentPage("Cursor");
        java.util.Map<String, String> screens = new java.util.LinkedHashMap<>();
        screens.put("mi-cuenta", "/mi-cuenta");
        screens.put("agentes", "/agentes");
        screens.put("solicitud", "/agents/requests/" + request);
        screens.put("usuarios", "/admin/usuarios");
        screens.put("auditoria", "/admin/auditoria?cluster=pantallas-1&from=2026-11-25T04:00:00Z"
                + "&to=2026-11-25T06:00:00Z");
        screens.put("instalacion", "/admin/instalacion");
        screens.put("cluster", "/admin/clusters/prod-1");
        screens.put("consentimiento", consent);
        for (ColorScheme scheme : List.of(ColorScheme.LIGHT, ColorScheme.DARK)) {
            for (int width : List.of(DESKTOP, PHONE)) {
                Page page = signedIn(width, scheme);
                for (java.util.Map.Entry<String, String> entry : screens.entrySet()) {
                    String screen = entry.getValue();
                    page.navigate(screen);
                    page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setLevel(1)).waitFor();
                    page.waitForLoadState(com.microsoft.playwright.options.LoadState.NETWORKIDLE);
                    Number wide = (Number) page.evaluate("document.documentElement.scrollWidth");
                    org.assertj.core.api.Assertions.assertThat(wide.intValue()).as(screen + " at " + width + " px")
                            .isLessThanOrEqualTo(width);
                    noViolations(page, screen + ", " + width + " px, " + scheme);
                    TestingBrowser.screenshot(page, "ronda4-" + entry.getKey() + "-" + width + "-"
                            + scheme.name().toLowerCase());
                }
            }
        }
        web.expect(200, "POST", "/api/agents/requests/" + request + "/deny", "{}", admin);
    }

    /** Dark mode follows the system; the screens keep their contrast in it. */
    @Test
    void darkModeFollowsTheSystemSetting() {
        Page light = signedIn(DESKTOP, ColorScheme.LIGHT);
        Page dark = signedIn(DESKTOP, ColorScheme.DARK);
        String lightGround = (String) light.evaluate("getComputedStyle(document.documentElement).backgroundColor");
        String darkGround = (String) dark.evaluate("getComputedStyle(document.documentElement).backgroundColor");
        org.assertj.core.api.Assertions.assertThat(lightGround).isEqualTo("rgb(243, 245, 248)");
        org.assertj.core.api.Assertions.assertThat(darkGround).isEqualTo("rgb(16, 22, 28)");
        for (String path : List.of("/admin/clusters", "/admin/permisos", "/admin/credenciales", "/agentes",
                "/admin/auditoria?vista=eventos")) {
            dark.navigate(path);
            dark.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setLevel(1)).waitFor();
            noViolations(dark, path + ", dark");
        }
        dark.navigate("/admin/clusters/prod-1");
        assertThat(dark.getByTestId("activity")).isVisible();
        noViolations(dark, "a cluster's page with its chart, dark");
        TestingBrowser.screenshot(dark, "admin-cluster-dark");
    }
}
