package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.ColorScheme;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingPeople;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Access when it is needed (issue 41) as people meet it in Chromium, at 1366 and 390 px with axe:
 * a person without a grant follows the refusal's link and asks; the administrator is told on
 * landing, opens the request with what the person holds and did beside it, approves with a
 * comment; the person sees the access running, marked as requested in their grants, and ends it;
 * an eligible grant given on the grants screen is activated from the account page; a cluster's page
 * sets how access to it is asked for.
 */
class AccessRequestsBrowserTest extends BrowserTestBase {
    private static final List<Integer> WIDTHS = List.of(1366, 390);

    @BeforeAll
    void people() {
        dev.klave.testing.TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
        for (int width : WIDTHS) {
            TestingPeople.signUp(web.klave, "eva" + width, false);
        }
        TestingPeople.signUp(web.klave, "eli", false);
    }

    private static void noViolations(Page page, String where) {
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).as(where).isEmpty();
    }

    /** A form's field by its name (a label wrapping a select reads its options too). */
    private static Locator field(Locator form, String name) {
        return form.locator("[name=\"" + name + "\"]");
    }

    private static void confirm(Page page, String label, String comment) {
        Locator dialog = page.getByRole(AriaRole.DIALOG);
        assertThat(dialog).isVisible();
        if (comment != null) {
            dialog.getByRole(AriaRole.TEXTBOX).fill(comment);
        }
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName(label).setExact(true)).click();
        assertThat(dialog).isHidden();
    }

    @Test
    void aPersonAsksFromTheRefusalsLinkAnAdministratorApprovesAndThePersonEndsIt() {
        for (int width : WIDTHS) {
            String eva = "eva" + width;
            Page person = browser.open(web.baseUrl, width, 900, ColorScheme.LIGHT);
            signIn(person, eva);
            // Without a grant, the credential form names where to ask.
            person.navigate("/mi-cuenta");
            person.getByTestId("issue-blocked").waitFor();
            Locator link = person.getByTestId("issue-blocked").getByRole(AriaRole.LINK);
            assertThat(link).isVisible();
            link.click();
            assertThat(person.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Pedir acceso")))
                    .isVisible();
            Locator form = person.getByTestId("ask-access");
            field(form, "cluster").selectOption("prod-1");
            field(form, "tier").selectOption("view");
            field(form, "namespace").fill("team-a");
            field(form, "minutes").selectOption("120");
            field(form, "reason").fill("incidente INC-" + width + ": revisar web-0");
            noViolations(person, "/acceso/pedir, " + width + " px");
            button(person, "Pedir acceso").click();
            assertThat(person.getByTestId("asked")).containsText("Solicitud enviada");
            TestingBrowser.screenshot(person, "acceso-pedido-" + width);

            Page admin = browser.open(web.baseUrl, width, 900, ColorScheme.LIGHT);
            signIn(admin, "root");
            assertThat(admin.getByTestId("waiting-banner")).containsText("1 solicitud de acceso de una persona");
            admin.getByTestId("waiting-banner").getByRole(AriaRole.LINK).click();
            admin.getByRole(AriaRole.LINK, new Page.GetByRoleOptions()
                    .setName(Pattern.compile("Ver el acceso que pide " + eva))).click();
            assertThat(admin.getByTestId("request-headline")).containsText(eva + " pide «ver (solo lectura)» sobre "
                    + "el namespace team-a de prod-1 durante 2 horas");
            assertThat(admin.getByTestId("access-reason")).containsText("incidente INC-" + width);
            assertThat(admin.getByTestId("context-grants")).containsText("ninguno");
            assertThat(admin.getByTestId("context-activity")).isVisible();
            noViolations(admin, "an access request for its decider, " + width + " px");
            TestingBrowser.screenshot(admin, "acceso-decidir-" + width);
            button(admin, "Aprobar").click();
            confirm(admin, "Aprobar", "adelante; avisa al terminar");
            assertThat(admin.getByTestId("request-state")).containsText("Aprobada por root");
            assertThat(admin.getByTestId("request-comment")).containsText("adelante; avisa al terminar");
            web.awaitBinding("team-a", "view");

            person.navigate("/mi-cuenta");
            Locator mine = person.getByTestId("own-access-requests");
            assertThat(mine).containsText("activo");
            assertThat(mine).containsText("Aprobada por root: activo hasta el");
            assertThat(person.getByTestId("grant-origin").first()).containsText("por solicitud");
            noViolations(person, "/mi-cuenta with access running, " + width + " px");
            TestingBrowser.screenshot(person, "acceso-activo-" + width);
            button(person, "Terminar ahora").click();
            confirm(person, "Terminar ahora", null);
            assertThat(mine).containsText("Terminado por " + eva);
            person.context().close();
            admin.context().close();
        }
    }

    @Test
    void anEligibleGrantGivenOnTheGrantsScreenIsActivatedFromTheAccountPage() {
        String eva = "eli";
        Page admin = browser.open(web.baseUrl, 1366, 900, ColorScheme.LIGHT);
        signIn(admin, "root");
        admin.navigate("/admin/permisos");
        button(admin, "Dar un permiso elegible").click();
        Locator form = admin.getByTestId("eligible-form");
        field(form, "eligible-subject").selectOption(new com.microsoft.playwright.options.SelectOption().setLabel(eva));
        field(form, "eligible-cluster").selectOption("prod-1");
        field(form, "eligible-tier").selectOption("edit");
        field(form, "eligible-max").selectOption("60");
        // Issue 51 §8: without a scope nothing is given — an empty one is never the whole cluster.
        button(admin, "Dar permiso elegible").click();
        org.assertj.core.api.Assertions.assertThat((Boolean) field(form, "eligible-scope")
                .evaluate("input => input.validity.valueMissing")).isTrue();
        org.assertj.core.api.Assertions.assertThat(web.expect(200, "GET", "/api/access/eligible", null, admin())
                .toString()).doesNotContain("\"" + web.idOf(admin(), eva) + "\"");
        field(form, "eligible-scope").fill("team-a");
        button(admin, "Dar permiso elegible").click();
        assertThat(admin.getByTestId("eligible-grants")).containsText(eva);
        noViolations(admin, "/admin/permisos with an eligible grant");

        for (int width : WIDTHS) {
            Page person = browser.open(web.baseUrl, width, 900, ColorScheme.DARK);
            signIn(person, eva);
            Locator eligible = person.getByTestId("own-eligible");
            assertThat(eligible).containsText("«editar (lectura y escritura)» sobre el namespace team-a de prod-1");
            if (width == WIDTHS.get(0)) {
                eligible.getByRole(AriaRole.BUTTON).first().click();
                person.getByLabel("Motivo").fill("guardia de esta noche");
                button(person, "Activar ahora").click();
                assertThat(person.getByTestId("own-access-requests")).containsText("Activo hasta el");
            }
            noViolations(person, "/mi-cuenta with an eligible grant, dark, " + width + " px");
            TestingBrowser.screenshot(person, "acceso-elegible-" + width);
            person.context().close();
        }
        JsonNode grants = web.expect(200, "GET", "/api/grants?subject=" + web.idOf(admin(), eva), null, admin());
        org.assertj.core.api.Assertions.assertThat(grants.findValuesAsText("tier")).contains("edit");
        admin.context().close();
    }

    @Test
    void aClustersPageSetsHowAccessIsAskedFor() {
        Page page = browser.open(web.baseUrl, 390, 900, ColorScheme.LIGHT);
        signIn(page, "root");
        page.navigate("/admin/clusters/prod-1");
        Locator card = page.getByTestId("access-policy");
        field(card, "policy-max").selectOption("120");
        field(card, "policy-two").check();
        field(card, "policy-decider").selectOption(new com.microsoft.playwright.options.SelectOption()
                .setLabel("eli"));
        assertThat(card.getByTestId("policy-deciders")).containsText("eli");
        card.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Guardar")).click();
        assertThat(page.getByText("Guardado cómo se pide acceso a este cluster.")).isVisible();
        noViolations(page, "the cluster's access policy, 390 px");

        JsonNode policy = web.expect(200, "GET", "/api/access/policies/prod-1", null, admin());
        org.assertj.core.api.Assertions.assertThat(policy.get("max_minutes").asInt()).isEqualTo(120);
        org.assertj.core.api.Assertions.assertThat(policy.get("two_approvals").asBoolean()).isTrue();
        org.assertj.core.api.Assertions.assertThat(policy.get("deciders").findValuesAsText("login"))
                .containsExactly("eli");
        page.context().close();
    }

    @Test
    void anAdministratorAddsANotificationsDestinationSeesItsSecretOnceAndItsLog() {
        for (int width : WIDTHS) {
            Page page = browser.open(web.baseUrl, width, 900, ColorScheme.LIGHT);
            signIn(page, "root");
            page.navigate("/admin/instalacion");
            Locator form = page.getByTestId("new-destination");
            field(form, "destination-name").fill("SIEM " + width);
            field(form, "destination-format").selectOption("json");
            // A private address outside SERVICE_WEBHOOK_ALLOW: refused when added, with the reason.
            field(form, "destination-url").fill("https://10.0.0.1/klave");
            button(page, "Añadir destino").click();
            assertThat(form.getByRole(AriaRole.ALERT)).containsText("10.0.0.1 no es una dirección pública");
            // The loopback, allowed here, on a closed port: added, and refused when sent; the log says so.
            int closed = closedPort();
            field(form, "destination-url").fill("https://127.0.0.1:" + closed + "/klave");
            button(page, "Añadir destino").click();
            assertThat(page.getByTestId("destination-secret")).containsText("kws_");
            Locator row = page.getByTestId("notify-destinations").getByRole(AriaRole.ROW,
                    new Locator.GetByRoleOptions().setName(Pattern.compile("SIEM " + width)));
            assertThat(row).containsText("https://127.0.0.1:" + closed + "/…");
            noViolations(page, "/admin/instalacion with a destination, " + width + " px");
            row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Probar «SIEM " + width + "»"))
                    .click();
            String name = "SIEM " + width;
            Eventually.until("the test attempt failed", Duration.ofSeconds(15), () -> failing(name));
            page.reload();
            Locator again = page.getByTestId("notify-destinations").getByRole(AriaRole.ROW,
                    new Locator.GetByRoleOptions().setName(Pattern.compile("SIEM " + width)));
            assertThat(again).containsText("falla desde el");
            again.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Registro de «SIEM " + width
                    + "»")).click();
            assertThat(again).containsText("Connection refused");
            assertThat(page.getByTestId("destination-secret")).hasCount(0);
            TestingBrowser.screenshot(page, "avisos-destinos-" + width);
            page.context().close();
        }
    }

    private String admin() {
        return admin;
    }

    private boolean failing(String name) throws Exception {
        JsonNode destinations = new com.fasterxml.jackson.databind.ObjectMapper().readTree(web.klave.http()
                .get("/api/notifications/destinations", "Cookie", admin).body());
        return destinations.findParents("name").stream().anyMatch(one -> one.get("name").asText().equals(name)
                && !one.get("failing_since").isNull());
    }

    /** A loopback port nothing listens on (taken, then given back). */
    private static int closedPort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
