package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.nav;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Query;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.agent.approval.Actor;
import dev.klave.agent.approval.Approvals;
import dev.klave.agent.approval.HeldCall;
import dev.klave.cluster.ClusterId;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingPeople;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
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
    private static final AtomicInteger CALLS = new AtomicInteger();

    private SubjectId bot;

    @BeforeAll
    void aBotWhoseWritesNeedApproval() {
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
        JsonNode created = web.expect(201, "POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"deployer\"}", admin);
        web.expect(200, "PATCH", "/api/subjects/" + created.get("id").asText(), "{\"writes_need_approval\":true}",
                admin);
        bot = new SubjectId(created.get("id").asText());
    }

    private Actor actor() {
        return new Actor(bot, Optional.of("cred-deployer"), Optional.empty());
    }

    /** A write of the bot, held as the scale tool holds one: deployments/web from 2 to 5 replicas. */
    private String holdScale() {
        String preview = """
                {"cluster": "prod-1", "namespace": "team-a", "verb": "patch", "resource": "deployments", "name": "web",
                 "current": {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "web", "namespace": "team-a", "resourceVersion": "41"},
                   "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}},
                 "result": {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "web", "namespace": "team-a", "resourceVersion": "41"},
                   "spec": {"replicas": 5, "template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}},
                 "changes": [{"path": "spec.replicas", "before": 2, "after": 5}]}
                """;
        return hold("scale", "patch", "deployments", "web",
                new HeldCall("PATCH",
                        ClusterPath.of("apis", "apps", "v1", "namespaces", "team-a", "deployments", "web", "scale"),
                        Query.NONE,
                        Optional.of("{\"spec\":{\"replicas\":5}}"), Optional.of("application/merge-patch+json")),
                preview);
    }

    /** A Secret the bot would change: its values arrive hidden, the changed one marked (spec 3 §8). */
    private String holdSecret() {
        String preview = """
                {"cluster": "prod-1", "namespace": "team-a", "verb": "apply", "resource": "secrets", "name": "db",
                 "current": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "team-a"},
                   "data": {"password": "<redacted, 8 bytes>", "user": "<redacted, 5 bytes>"}},
                 "result": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "team-a"},
                   "data": {"password": "<redacted, 12 bytes, changed>", "user": "<redacted, 5 bytes>"}},
                 "changes": [{"path": "data.password", "before": "<redacted, 8 bytes>",
                   "after": "<redacted, 12 bytes, changed>"}]}
                """;
        return hold("apply", "apply", "secrets", "db", new HeldCall("PATCH",
                ClusterPath.of("api", "v1", "namespaces", "team-a", "secrets", "db"),
                Query.NONE.with("fieldManager", "service-mcp"), Optional.of("{}"),
                Optional.of("application/apply-patch+yaml")), preview);
    }

    private String hold(String tool, String verb, String resource, String name, HeldCall call, String preview) {
        Approvals approvals = web.klave.klave().services().approvals();
        return approvals.hold(actor(), Optional.empty(), new ClusterId("prod-1"), "team-a", tool, verb, resource, name,
                "arguments-" + CALLS.incrementAndGet(), call, preview).id();
    }

    private String requestAccess() {
        return web.klave.klave().services().accessRequests().request(actor(), Optional.empty(),
                new ClusterId("prod-1"), new Scope("team-a"), Tier.VIEW, 30, "revisar los pods que fallan").id();
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
        org.assertj.core.api.Assertions.assertThat(web.klave.klave().services().approvals().claim(id)).isTrue();
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
        assertThat(changes.locator("ins")).hasText("<redacted, 12 bytes, changed>");

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
                .hasText("El bot deployer pide view sobre el namespace team-a de prod-1 durante 30 minutos.");
        Locator facts = page.locator(".facts");
        assertThat(facts).containsText("ver (solo lectura)");
        assertThat(facts).containsText("el namespace team-a");
        assertThat(facts).containsText("30 minutos");
        assertThat(page.getByTestId("access-reason")).hasText("revisar los pods que fallan");
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();

        button(page, "Aprobar").click();

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
