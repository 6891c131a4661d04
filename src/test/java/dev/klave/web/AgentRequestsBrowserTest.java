package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.nav;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.agent.approval.Approvals;
import dev.klave.testing.TestingPeople;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pages of spec 3 §4 "Write approval flow": a bot's held write read, approved or denied (after
 * confirming) on its own page, which then says who decided and when; an expired one with nothing
 * left to press; an access request approved into a grant; the agents page listing what waits, and
 * telling a person with nothing to decide so. Requests are held through the approvals' own Java
 * API, as the agent's tools hold them.
 */
class AgentRequestsBrowserTest extends BrowserTestBase {
    private HeldRequests bot;

    @BeforeAll
    void aBotWhoseWritesNeedApproval() {
        bot = HeldRequests.ofNewBot(web, admin, "deployer");
    }

    private String holdScale() {
        return bot.holdScale();
    }

    private String holdSecret() {
        return bot.holdSecret();
    }

    private String requestAccess() {
        return bot.requestAccess();
    }

    private Page requestPage(String id) {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/agents/requests/" + id);
        return page;
    }

    private static Locator state(Page page) {
        return page.getByTestId("request-state");
    }

    @Test
    void aPendingWriteShowsItsChangesAndIsApprovedByAnAdministrator() {
        String id = holdScale();
        Page page = requestPage(id);

        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Solicitud de escritura")))
                .isVisible();
        assertThat(page.getByTestId("request-headline"))
                .hasText("El bot deployer quiere modificar deployments/web en team-a (prod-1).");
        assertThat(state(page)).containsText("Pendiente: espera una decisión hasta el");
        assertThat(page.getByTestId("request-subject")).containsText("deployer");
        assertThat(page.locator(".facts")).containsText("scale");
        Locator changes = page.getByTestId("changes");
        assertThat(changes).containsText("spec.replicas");
        assertThat(changes.locator("del")).hasText("2");
        assertThat(changes.locator("ins")).hasText("5");
        Locator result = page.getByTestId("object-result");
        result.locator("summary").click();
        assertThat(result.locator(".yaml-changed")).hasCount(1);
        assertThat(result.locator(".yaml-changed")).containsText("replicas: 5");
        assertThat(result).containsText("image: nginx:1.27");
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        TestingBrowser.screenshot(page, "agents-request-pending");

        button(page, "Aprobar").click();
        // Approving asks first, as denying does (issue 40 item 7).
        Locator asked = page.getByRole(AriaRole.DIALOG);
        assertThat(asked).containsText("Se hará: modificar deployments/web en team-a (prod-1).");
        asked.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Aprobar").setExact(true)).click();

        assertThat(state(page)).containsText("Aprobada por root el");
        assertThat(button(page, "Aprobar")).hasCount(0);
        assertThat(button(page, "Denegar")).hasCount(0);
        JsonNode stored = web.expect(200, "GET", "/api/agents/requests/" + id, null, admin);
        org.assertj.core.api.Assertions.assertThat(stored.get("status").asText()).isEqualTo("approved");
        org.assertj.core.api.Assertions.assertThat(stored.get("decided_by").asText()).isEqualTo("root");
        page.reload();
        assertThat(state(page)).containsText("Aprobada por root el");
        TestingBrowser.screenshot(page, "agents-request-approved");

        // The agent calls again and the stored request runs once (spec 3 §3): the page says so.
        org.assertj.core.api.Assertions.assertThat(web.klave.hooks().approvals().claim(id)).isTrue();
        page.reload();
        assertThat(state(page)).containsText("Aprobada por root el");
        assertThat(state(page)).containsText("y ejecutada el");
        assertThat(page.getByTestId("request-actions")).hasCount(0);
    }

    @Test
    void aDenialIsConfirmedFirstAndSecretValuesStayHidden() {
        String id = holdSecret();
        Page page = requestPage(id);
        Locator changes = page.getByTestId("changes");
        assertThat(changes).containsText("data.password");
        assertThat(changes.locator("ins")).hasText("‹oculto, 12 bytes, cambia›");

        button(page, "Denegar").click();
        Locator dialog = page.getByRole(AriaRole.DIALOG);
        assertThat(dialog).containsText("secrets/db en team-a (prod-1)");
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Cancelar")).click();
        assertThat(state(page)).containsText("Pendiente: espera una decisión hasta el");
        org.assertj.core.api.Assertions.assertThat(web.expect(200, "GET", "/api/agents/requests/" + id, null, admin)
                .get("status").asText()).isEqualTo("pending");

        button(page, "Denegar").click();
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Denegar").setExact(true)).click();

        assertThat(state(page)).containsText("Denegada por root el");
        assertThat(page.getByTestId("request-actions")).hasCount(0);
        org.assertj.core.api.Assertions.assertThat(web.expect(200, "GET", "/api/agents/requests/" + id, null, admin)
                .get("status").asText()).isEqualTo("denied");
        TestingBrowser.screenshot(page, "agents-request-denied");
    }

    @Test
    void anExpiredRequestOffersNothingToPress() {
        String id = holdScale();
        web.clock.advance(Approvals.LIFETIME.plus(Duration.ofMinutes(1)));
        Page page = requestPage(id);

        assertThat(state(page)).containsText("Caducada el");
        assertThat(state(page)).containsText("nadie la decidió a tiempo");
        assertThat(page.getByTestId("request-actions")).hasCount(0);
        assertThat(button(page, "Aprobar")).hasCount(0);
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        TestingBrowser.screenshot(page, "agents-request-expired");
    }

    @Test
    void anAccessRequestShowsRoleScopeMinutesAndReasonAndIsApproved() {
        String id = requestAccess();
        Page page = requestPage(id);

        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Solicitud de acceso")))
                .isVisible();
        assertThat(page.getByTestId("request-headline"))
                .hasText("El bot deployer pide «ver (solo lectura)» sobre el namespace team-a de prod-1 durante 30 minutos.");
        Locator facts = page.locator(".facts");
        assertThat(facts).containsText("ver (solo lectura)");
        assertThat(facts).containsText("el namespace team-a");
        assertThat(facts).containsText("30 minutos");
        assertThat(page.getByTestId("access-reason")).hasText("revisar los pods que fallan");
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();

        button(page, "Aprobar").click();
        page.getByRole(AriaRole.DIALOG).getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Aprobar")
                .setExact(true)).click();

        assertThat(state(page)).containsText("Aprobada por root el");
        assertThat(state(page)).containsText("El permiso dura hasta el");
        JsonNode stored = web.expect(200, "GET", "/api/agents/requests/" + id, null, admin);
        org.assertj.core.api.Assertions.assertThat(stored.get("grant_id").isTextual()).isTrue();
        TestingBrowser.screenshot(page, "agents-request-access-approved");
    }

    @Test
    void theAgentsPageListsWhatWaitsAndLinksToIt() {
        String write = holdScale();
        String access = requestAccess();
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");

        nav(page, "Agentes");

        Locator row = page.getByTestId("write-" + write);
        assertThat(row).containsText("deployer");
        assertThat(row).containsText("deployments/web en team-a (prod-1)");
        assertThat(page.getByTestId("access-" + access)).containsText("revisar los pods que fallan");
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        TestingBrowser.screenshot(page, "agentes");
        row.getByRole(AriaRole.LINK).click();
        assertThat(page).hasURL(web.baseUrl + "/agents/requests/" + write);
        assertThat(page.getByTestId("request-headline")).containsText("deployments/web");
        // The request's page belongs to the agents page in the navigation.
        assertThat(page.getByRole(AriaRole.NAVIGATION).getByRole(AriaRole.LINK,
                new Locator.GetByRoleOptions().setName("Agentes"))).hasAttribute("aria-current", "page");
    }

    @Test
    void aPersonWithNothingToDecideIsToldSoAndCannotSeeABotsRequest() {
        TestingPeople.signUp(web.klave, "lucia", false);
        String id = holdScale();
        Page page = browser.open(web.baseUrl);
        signIn(page, "lucia");

        page.navigate("/agentes");
        assertThat(page.getByText("Ninguna escritura espera aprobación.")).isVisible();
        assertThat(page.getByText("Ninguna petición de acceso espera respuesta.")).isVisible();
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();

        page.navigate("/agents/requests/" + id);
        assertThat(page.getByRole(AriaRole.ALERT))
                .hasText("No hay ninguna solicitud con este enlace que puedas decidir tú.");
        assertThat(button(page, "Aprobar")).hasCount(0);
    }

    @Test
    void signedOutTheLinkLeadsToSignIn() {
        String id = holdScale();
        Page page = browser.open(web.baseUrl);

        page.navigate("/agents/requests/" + id);

        // Request ids are URL-safe (wr_ and base64url): no character of theirs needs escaping here.
        assertThat(page).hasURL(java.util.regex.Pattern.compile("/login\\?next=%2Fagents%2Frequests%2F" + id + "$"));
    }

    @Test
    void onAPhoneTheRequestAndTheAgentsPageFitTheScreen() {
        String id = holdScale();
        Page page = browser.open(web.baseUrl, 360, 800);
        signIn(page, "root");
        for (String screen : new String[] {"/agents/requests/" + id, "/agentes"}) {
            page.navigate(screen);
            page.getByTestId(screen.equals("/agentes") ? "pending-writes" : "request-state").waitFor();
            page.locator("details > summary").all().forEach(Locator::click);
            Object width = page.evaluate("() => document.documentElement.scrollWidth");
            org.assertj.core.api.Assertions.assertThat(((Number) width).intValue()).as(screen + " at 360")
                    .isLessThanOrEqualTo(360);
            org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).as(screen).isEmpty();
            TestingBrowser.screenshot(page, (screen.equals("/agentes") ? "agentes" : "agents-request") + "-360");
        }
    }
}
