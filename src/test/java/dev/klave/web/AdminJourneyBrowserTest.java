package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.SelectOption;
import dev.klave.simulator.Kubectl;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An administrator's path through the interface: create a person,
 * register and bootstrap a cluster against the simulator, grant, find the audit row of a
 * {@code kubectl get} made with the person's credential, then delete the cluster.
 */
class AdminJourneyBrowserTest extends BrowserTestBase {
    static Locator button(Page page, String name) {
        return page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
    }

    /** A user row's secondary action, behind its "⋯" menu (issue 40 item 4). */
    static void rowAction(Page page, String login, String name) {
        page.getByTestId("more-" + login).click();
        page.getByRole(AriaRole.MENUITEM, new Page.GetByRoleOptions().setName(name).setExact(true)).click();
    }

    static void signIn(Page page, String login) {
        page.navigate("/login");
        page.getByLabel("Usuario").fill(login);
        page.getByLabel("Contraseña").fill(TestingPeople.PASSWORD);
        button(page, "Entrar").click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Mi cuenta"))).isVisible();
    }

    static void nav(Page page, String name) {
        // "Agentes" may say what waits after its name ("Agentes: esperan tu decisión 2 escrituras").
        page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Principal"))
                .getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName(java.util.regex.Pattern.compile(
                        // Escaped by hand: the pattern runs in the browser, whose regular expressions lack \Q…\E.
                        "^" + name.replaceAll("[^\\p{L}\\p{N} ]", "\\\\$0") + "(\\s*:.*)?$"))).click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(name).setLevel(1)))
                .isVisible();
    }

    @Test
    void adminCreatesAPersonAClusterAndAGrantThenFindsTheAuditRowOfTheirKubectlGet() throws Exception {
        Page page = browser.open(web.baseUrl);
        page.navigate("/login");
        TestingBrowser.screenshot(page, "login");
        signIn(page, "root");

        // A person: the invitation link is shown once, ready to copy.
        nav(page, "Usuarios");
        page.getByLabel("Login").fill("bea");
        page.getByLabel("Nombre visible").fill("Bea Ruiz");
        page.getByLabel("Correo (opcional)").fill("bea@example.com");
        button(page, "Crear persona e invitar").click();
        String link = page.getByTestId("one-time-link-value").inputValue();
        assertThat(link).startsWith(web.baseUrl + "/cuenta#kli_");
        assertThat(page.getByTestId("subject-bea")).containsText("Bea Ruiz");
        assertThat(page.getByTestId("subject-bea")).containsText("invitación pendiente");
        TestingBrowser.screenshot(page, "admin-usuarios");
        button(page, "Ya lo he enviado").click();
        HttpResponse<String> completed = web.http.send("POST", "/api/auth/link/complete", "{\"token\":\""
                + TestingPeople.tokenOf(link) + "\",\"password\":\"" + TestingPeople.PASSWORD + "\"}");
        assertThat(completed.statusCode()).as(completed.body()).isEqualTo(200);
        String bea = TestingPeople.cookieOf(completed);

        // A cluster, bootstrapped step by step.
        nav(page, "Clusters");
        assertThat(page.getByText("Todavía no hay ningún cluster.")).isVisible();
        page.getByLabel("Identificador").fill("prod-1");
        page.getByLabel("Nombre", new Page.GetByLabelOptions().setExact(true)).fill("Producción");
        button(page, "Registrar").click();
        assertThat(page).hasURL(web.baseUrl + "/admin/clusters/prod-1");
        assertThat(page.getByTestId("cluster-status")).hasText("sin tokens");
        assertThat(page.getByLabel("Comando de aplicación")).hasValue("kubectl apply -f bootstrap.yaml");
        assertThat(page.getByLabel("Comando del JSON")).hasValue(java.util.regex.Pattern.compile("^printf .*klave-proxy-token"));
        TestingBrowser.screenshot(page, "admin-cluster-sin-tokens");
        Download manifest = page.waitForDownload(() -> page.getByRole(AriaRole.LINK,
                new Page.GetByRoleOptions().setName("Descargar bootstrap.yaml")).click());
        try (Kubectl clusterAdmin = new Kubectl(web.cluster, web.cluster.adminToken())) {
            Kubectl.Result applied = clusterAdmin.run("apply", "-f", manifest.path().toString());
            assertThat(applied.exitCode()).as(applied.output()).isZero();
        }
        String wrong = "{\"server\":\"" + web.cluster.url() + "\",\"ca\":\"no es un PEM\",\"proxyToken\":\"a\","
                + "\"reconcilerToken\":\"b\"}";
        String refusal = web.expect(400, "POST", "/api/clusters/prod-1/tokens", wrong, admin).get("error").asText();
        page.getByLabel("JSON de arranque").fill(wrong);
        button(page, "Guardar y conectar").click();
        assertThat(page.getByTestId("bootstrap-error")).hasText(refusal);
        page.getByLabel("JSON de arranque").fill("{\"server\": ");
        button(page, "Guardar y conectar").click();
        assertThat(page.getByTestId("bootstrap-error")).containsText("Eso no es JSON");
        TestingBrowser.screenshot(page, "admin-cluster-json-no-valido");
        page.getByLabel("JSON de arranque").fill(TestingClusters.tokensJson(web.cluster, web.cluster.caCertificatePem()));
        button(page, "Guardar y conectar").click();
        assertThat(page.getByTestId("cluster-status")).hasText("en línea");
        assertThat(page.locator(".namespaces li", new Page.LocatorOptions().setHasText("team-a"))).containsText("baseline");
        awaitFirstReconciliation(page);
        button(page, "Reconciliar ahora").click();
        assertThat(page.getByText("Reconciliación hecha")).isVisible();
        assertThat(page.getByTestId("kubernetes-version")).hasText("v1.32.0");
        assertThat(page.getByTestId("agent-tools-support")).hasText("disponibles");
        TestingBrowser.screenshot(page, "admin-cluster");
        nav(page, "Clusters");
        assertThat(page.getByTestId("cluster-prod-1")).containsText("en línea");
        TestingBrowser.screenshot(page, "admin-clusters");

        // A grant from the tier catalogue, on a namespace picked with its pod-security level.
        nav(page, "Permisos");
        page.getByLabel("Usuario").first().selectOption(new SelectOption().setLabel("bea"));
        page.getByLabel("Cluster").first().selectOption("prod-1");
        page.getByLabel("Nivel").selectOption("edit");
        Locator scope = page.getByLabel("Ámbito");
        assertThat(scope.locator("option[value='team-a']")).containsText("psa_enforce: baseline");
        assertThat(scope.locator("option[value='kube-system']")).containsText("protegido");
        assertThat(scope.locator("option[value='kube-system']")).hasAttribute("disabled", "");
        scope.selectOption("team-a");
        page.getByLabel("Nota").fill("ticket OPS-1");
        button(page, "Conceder permiso").click();
        Locator granted = page.locator("tbody tr", new Page.LocatorOptions().setHasText("ticket OPS-1"));
        assertThat(granted).containsText("bea");
        assertThat(granted).containsText("team-a");
        assertThat(granted).containsText("activo");
        TestingBrowser.screenshot(page, "admin-permisos");
        web.awaitBinding("team-a", "edit");

        // Bea uses a credential; the administrator finds the row and opens it by its Audit-ID.
        JsonNode issued = web.expect(201, "POST", "/api/credentials", "{\"ttl\":\"1h\"}", bea);
        try (Kubectl kubectl = new Kubectl(issued.get("kubeconfig").asText())) {
            Kubectl.Result pods = kubectl.run("get", "pods", "-n", "team-a");
            assertThat(pods.exitCode()).as(pods.output()).isZero();
        }
        nav(page, "Auditoría");
        page.getByLabel("Usuario").selectOption(new SelectOption().setLabel("bea"));
        page.getByLabel("Cluster").selectOption("prod-1");
        page.getByLabel("Recurso").fill("pods");
        button(page, "Filtrar").click();
        assertThat(page).hasURL(java.util.regex.Pattern.compile("/admin/auditoria\\?.*resource=pods"));
        Locator row = page.getByTestId("audit-row").filter(new Locator.FilterOptions().setHasText("list"));
        assertThat(row).hasCount(1);
        assertThat(row).containsText("bea");
        assertThat(row).containsText("team-a");
        assertThat(row).containsText("200");
        TestingBrowser.screenshot(page, "admin-auditoria");
        String auditId = row.getByRole(AriaRole.LINK).last().textContent();
        row.getByRole(AriaRole.LINK).last().click();
        assertThat(page).hasURL(web.baseUrl + "/admin/auditoria/" + auditId);
        assertThat(page.getByTestId("audit-status")).hasText("200");
        assertThat(page.getByTestId("audit-detail")).containsText("/api/v1/namespaces/team-a/pods");
        JsonNode stored = web.expect(200, "GET", "/api/audit/" + auditId, null, admin);
        assertThat(stored.get("subject").asText()).isEqualTo("bea");
        page.reload();
        assertThat(page.getByTestId("audit-status")).hasText("200");
        TestingBrowser.screenshot(page, "admin-auditoria-detalle");
        page.navigate("/admin/auditoria?vista=eventos");
        assertThat(page.getByTestId("control-event").first()).isVisible();
        TestingBrowser.screenshot(page, "admin-auditoria-eventos");

        // Deleting the cluster asks first, then reports the RBAC cleanup.
        page.navigate("/admin/clusters/prod-1");
        button(page, "Borrar cluster").click();
        Locator dialog = page.getByRole(AriaRole.DIALOG);
        assertThat(dialog).containsText("todos sus permisos");
        TestingBrowser.screenshot(page, "admin-cluster-borrar");
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Borrar cluster")).click();
        assertThat(page.getByTestId("cleanup-report")).containsText("limpieza completa");
        TestingBrowser.screenshot(page, "admin-cluster-borrado");
        web.expect(404, "GET", "/api/clusters/prod-1", null, admin);
        assertThat(web.cluster.objects().get("rolebindings", "team-a", "klave-edit")).isEmpty();
    }

    /** The first pass runs in the background after the tokens; "Reconciliar ahora" waits for it. */
    private static void awaitFirstReconciliation(Page page) {
        Eventually.until("the first reconciliation shown on the cluster's page", Duration.ofSeconds(10), () -> {
            if (!page.getByTestId("last-reconciliation").textContent().equals("—")) {
                return true;
            }
            page.reload();
            return false;
        });
    }
}
