package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.SelectOption;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingPeople;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Nothing a person reads is misread (issue: web interface, third round): times in local time and
 * a range that cannot match said so, errors that go away when they no longer apply and that name
 * the screen's own fields, a disabled person's grant kept but not counting, credentials by name in
 * the audit, and no offer to retry what would only be refused again.
 */
class ReadingRightBrowserTest extends BrowserTestBase {
    @BeforeAll
    void aClusterAndAGrant() {
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + web.idOf(admin, "root")
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"*\"}", admin);
    }

    @Test
    void aDateFilterKeepsTheLocalTimeTypedAndARangeThatCannotMatchIsSaid() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/auditoria?vista=eventos");

        page.getByLabel("Desde").fill("2026-11-25T13:50");
        button(page, "Filtrar").click();

        // Madrid is UTC+1 in November: the address holds UTC, the input still reads what was typed.
        assertThat(page).hasURL(Pattern.compile("from=2026-11-25T12%3A50%3A00.000Z"));
        assertThat(page.getByLabel("Desde")).hasValue("2026-11-25T13:50");

        page.getByLabel("Hasta").fill("2026-11-25T10:00");
        assertThat(page.getByRole(AriaRole.ALERT)).hasText("«Hasta» es anterior a «Desde»: ningún registro puede estar "
                + "entre las dos. Corrige una de las fechas.");
        button(page, "Filtrar").click();
        assertThat(page).not().hasURL(Pattern.compile("to="));

        page.navigate("/admin/auditoria?from=2026-11-25T12:00:00Z&to=2026-11-25T10:00:00Z");
        assertThat(page.getByText("«Hasta» es anterior a «Desde»").first()).isVisible();
    }

    @Test
    void anErrorGoesWhenTheBrowserStopsTheNextSubmitAndFieldsAreNamedAsOnTheScreen() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");
        page.getByLabel("Login").fill("root");
        button(page, "Crear persona e invitar").click();
        assertThat(page.getByRole(AriaRole.ALERT)).hasText("Ese login ya existe (los logins no se reutilizan)");

        page.getByLabel("Login").fill("");
        button(page, "Crear persona e invitar").click();

        assertThat(page.getByRole(AriaRole.ALERT)).hasCount(0);

        page.navigate("/admin/permisos");
        page.locator("select[name=subject]").selectOption(new SelectOption().setLabel("root"));
        page.locator("select[name=cluster]").selectOption("prod-1");
        page.locator("select[name=scope]").selectOption("*");
        page.locator("select[name=tier]").selectOption("edit");
        assertThat(page.locator("select[name=tier] option[value=edit]")).hasText("editar (lectura y escritura)");
        page.getByLabel("Caduca (opcional)").fill("2020-01-01T10:00");
        button(page, "Conceder permiso").click();
        assertThat(page.getByRole(AriaRole.ALERT)).hasText("«Caduca» no válido: debe ser una fecha futura");
        assertThat(page.getByTestId("tier-description")).hasText(
                "editar (lectura y escritura) (edit): crear, cambiar y borrar cargas de trabajo, ConfigMaps y Secrets; "
                        + "sin tocar permisos.");
        assertThat(page.getByText("Namespaces protegidos")).containsText("kube-node-lease, kube-public, kube-system.");

        page.navigate("/admin/auditoria?from=ayer");
        assertThat(page.getByRole(AriaRole.ALERT)).containsText("«Desde» no válido");
    }

    @Test
    void aLockoutSaysWhatToDoAndReadsTheSameWhetherTheLoginExists() {
        TestingPeople.signUp(web.klave, "lola", false);
        String[] shown = new String[2];
        String[] logins = {"lola", "nadie-se-llama-asi"};
        for (int i = 0; i < 2; i++) {
            Page page = browser.open(web.baseUrl);
            page.navigate("/login");
            for (int attempt = 0; attempt < 6; attempt++) {
                page.getByLabel("Usuario").fill(logins[i]);
                page.getByLabel("Contraseña").fill("no es la contraseña");
                button(page, "Entrar").click();
                page.getByRole(AriaRole.ALERT).waitFor();
            }
            assertThat(page.getByTestId("lockout-help")).isVisible();
            shown[i] = page.locator("#login-failure").textContent();
        }

        org.assertj.core.api.Assertions.assertThat(shown[0]).startsWith("Demasiados intentos")
                .contains("Espera unos minutos (hasta 15)").isEqualTo(shown[1]);
    }

    @Test
    void aDisabledPersonsGrantIsKeptButDoesNotCountNotExpired() {
        TestingPeople.signUp(web.klave, "dora", false);
        String dora = web.idOf(admin, "dora");
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + dora
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"team-a\"}", admin);
        web.expect(200, "POST", "/api/subjects/" + dora + "/disable", null, admin);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");

        page.navigate("/admin/permisos");

        var row = page.locator("tr", new Page.LocatorOptions().setHasText("dora"));
        assertThat(row).containsText("sin efecto");
        assertThat(row).containsText("la cuenta está deshabilitada: el permiso se conserva, pero no cuenta");
        assertThat(row).not().containsText("caducado");
    }

    @Test
    void theAuditNamesCredentialsAndAnUnknownAuditIdOffersNoRetry() throws Exception {
        var issued = web.expect(201, "POST", "/api/credentials", "{\"ttl\":\"1h\",\"name\":\"portátil de root\"}",
                admin);
        String token = issued.get("token").asText();
        web.klave.http().get("/clusters/prod-1/api/v1/namespaces", "Authorization", "Bearer " + token);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");

        page.navigate("/admin/auditoria");
        assertThat(page.getByTestId("audit-credential").first()).hasText("portátil de root · root");
        assertThat(page.getByTestId("audit-credential").first()).hasAttribute("title",
                Pattern.compile(issued.get("id").asText()));

        page.navigate("/admin/auditoria/00000000-0000-0000-0000-000000000000");
        assertThat(page.getByRole(AriaRole.ALERT)).isVisible();
        assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Reintentar"))).hasCount(0);
    }

    @Test
    void cancellingTheUserEditorReturnsFocusToItsRowsButton() {
        TestingPeople.signUp(web.klave, "eloy", false);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        page.navigate("/admin/usuarios");

        button(page, "Editar eloy").click();
        button(page, "Cancelar").click();

        assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Editar eloy"))).isFocused();
    }
}
