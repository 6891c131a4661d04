package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.nav;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.SelectOption;
import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.audit.AuditRow;
import dev.klave.credential.Credential;
import dev.klave.store.JdbiAuditStore;
import dev.klave.store.Database;
import dev.klave.store.JdbiCredentialStore;
import dev.klave.store.JdbiSubjectStore;
import dev.klave.testing.TestingAuditRows;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The credentials screen at scale: the server pages (50 at a time) and filters (owner, state,
 * text); the browser never asks for the whole list, and "Siguiente"/"Anterior" walk the cursor.
 */
class ListingsBrowserTest extends BrowserTestBase {
    private static final int CREDENTIALS = 120;
    private final List<Credential> issued = new java.util.ArrayList<>();
    private final List<Subject> owners = new java.util.ArrayList<>();

    @BeforeAll
    void seed() {
        Database database = web.klave.klave().database();
        JdbiSubjectStore subjects = new JdbiSubjectStore(database);
        JdbiCredentialStore credentials = new JdbiCredentialStore(database);
        Instant now = web.clock.instant();
        List.of("titular-a", "titular-b", "titular-c").stream()
                .map(login -> Subject.newPerson(new Login(login), login, Optional.empty(), false, false, now))
                .forEach(owners::add);
        owners.forEach(subjects::create);
        for (int i = 0; i < 60; i++) {
            subjects.create(Subject.newPerson(new Login(String.format("gente-%02d", i)), "Gente " + i, Optional.empty(),
                    false, false, now));
        }
        for (int i = 0; i < CREDENTIALS; i++) {
            Instant created = now.minusSeconds(60L * (i + 1));
            Credential credential = new Credential(UUID.randomUUID().toString(), "hash-" + UUID.randomUUID(),
                    owners.get(i % 3).id(), Optional.empty(), String.format("cred-%03d", i), "", created,
                    created.plus(Duration.ofDays(7)), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty());
            credentials.create(credential);
            issued.add(credential);
            if (i % 10 == 9) {
                credentials.revoke(credential.id(), now, Optional.empty(), Optional.of("rotada"));
            }
        }
    }

    private static Locator rows(Page page) {
        return page.getByTestId("all-credentials").locator("tbody tr");
    }

    private static Locator button(Page page, String name) {
        return page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Páginas de credenciales"))
                .getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName(name));
    }

    @Test
    void theCredentialsScreenPagesAndFiltersOnTheServer() {
        Page page = browser.open(web.baseUrl);
        List<String> asked = new CopyOnWriteArrayList<>();
        signIn(page, "root");
        page.onRequest(request -> {
            // The account page (where signing in lands) lists one's own: not this screen's request.
            if (request.url().contains("/api/credentials") && request.frame().url().contains("/admin/credenciales")) {
                asked.add(request.url());
            }
        });
        nav(page, "Credenciales");

        assertThat(rows(page)).hasCount(50);
        assertThat(rows(page).first()).containsText("cred-000");
        assertThat(rows(page).last()).containsText("cred-049");
        assertThat(rows(page).first()).containsText("titular-a");
        assertThat(page.getByText("Página 1")).isVisible();
        assertThat(button(page, "← Anterior")).isDisabled();

        button(page, "Siguiente →").click();
        assertThat(page.getByText("Página 2")).isVisible();
        assertThat(rows(page).first()).containsText("cred-050");
        assertThat(rows(page)).hasCount(50);
        button(page, "Siguiente →").click();
        assertThat(page.getByText("Página 3")).isVisible();
        assertThat(rows(page)).hasCount(CREDENTIALS - 100);
        assertThat(rows(page).last()).containsText("cred-119");
        assertThat(button(page, "Siguiente →")).isDisabled();
        button(page, "← Anterior").click();
        assertThat(rows(page).first()).containsText("cred-050");

        // Filters go to the address and to the server, and start again at the first page.
        page.locator("select[name=state]").selectOption("revoked");
        assertThat(page).hasURL(Pattern.compile("/admin/credenciales\\?state=revoked$"));
        assertThat(rows(page)).hasCount(CREDENTIALS / 10);
        assertThat(rows(page).first()).containsText("cred-009");
        assertThat(rows(page).first()).containsText("rotada");
        assertThat(page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Páginas de credenciales")))
                .hasCount(0);

        // 64 people: the owner's list holds the first 50 by login, and a search finds the rest.
        assertThat(page.locator("select[name=owner] option")).hasCount(51);
        page.locator("input[name=owner-search]").fill("titular");
        page.locator("select[name=owner]").selectOption(new SelectOption().setLabel("titular-b"));
        assertThat(page).hasURL(Pattern.compile("owner="));
        assertThat(rows(page)).hasCount(4);
        for (int i = 0; i < 4; i++) {
            assertThat(rows(page).nth(i)).containsText("titular-b");
        }

        page.locator("select[name=state]").selectOption("");
        page.locator("select[name=owner]").selectOption(new SelectOption().setLabel("Todos"));
        assertThat(rows(page)).hasCount(50);
        // Another filter starts at its first page, even one whose later pages were seen before.
        assertThat(rows(page).first()).containsText("cred-000");
        assertThat(page.getByText("Página 1")).isVisible();
        page.locator("input[name=q]").fill("cred-07");
        assertThat(page).hasURL(Pattern.compile("/admin/credenciales\\?q=cred-07$"));
        assertThat(rows(page)).hasCount(10);
        assertThat(rows(page).first()).containsText("cred-070");
        TestingBrowser.screenshot(page, "admin-credenciales-filtradas");

        org.assertj.core.api.Assertions.assertThat(asked).as("never the whole list").isNotEmpty()
                .allSatisfy(url -> org.assertj.core.api.Assertions.assertThat(url).contains("limit=50"));
        org.assertj.core.api.Assertions.assertThat(asked).anySatisfy(url -> org.assertj.core.api.Assertions
                .assertThat(url).contains("status=revoked").contains("subject="));
        org.assertj.core.api.Assertions.assertThat(asked).anySatisfy(url -> org.assertj.core.api.Assertions
                .assertThat(url).contains("q=cred-07"));
    }

    /**
     * Issue 32: the audit screen's pickers and its table never ask for every subject or every
     * credential — the picker the first 50 and what a search finds, the table the names of its
     * page's credentials by id — and a filter chosen by search survives a reload of its address.
     */
    @Test
    void theAuditScreenAsksOnlyForWhatItShows() {
        JdbiAuditStore audit = new JdbiAuditStore(web.klave.klave().database());
        Instant now = web.clock.instant();
        List<AuditRow> rows = new java.util.ArrayList<>();
        List<AuditRow.Completion> ends = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Subject owner = owners.get(i);
            String id = "01a00000-0000-7000-8000-00000000000" + i;
            AuditRow.Actor actor = new AuditRow.Actor(Optional.of(owner.id().value()),
                    Optional.of(owner.login().value()), Optional.of(issued.get(i).id()), Optional.of("127.0.0.1"));
            rows.add(AuditRow.opened(id, now.minusSeconds(10 - i), actor, "prod-1",
                    TestingAuditRows.request("list", "default", "pods", "/api/v1/namespaces/default/pods")));
            ends.add(new AuditRow.Completion(id, 200, Optional.empty(), now.minusSeconds(10 - i)));
        }
        audit.write(rows, List.of());
        audit.write(List.of(), ends);
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        List<String> asked = new CopyOnWriteArrayList<>();
        page.onRequest(request -> {
            if ((request.url().contains("/api/subjects") || request.url().contains("/api/credentials"))
                    && request.frame().url().contains("/admin/auditoria")) {
                asked.add(request.url());
            }
        });
        page.navigate(web.baseUrl + "/admin/auditoria");

        Locator table = page.locator("[data-testid=audit-row]");
        assertThat(table).hasCount(3);
        // Credentials by name and owner, from a lookup of this page's three.
        assertThat(table.first()).containsText("cred-002");
        assertThat(table.first()).containsText("titular-c");
        assertThat(table.last()).containsText("cred-000");
        Locator people = page.locator("select[name=subject] option");
        assertThat(people).hasCount(51);
        page.locator("input[name=subject-search]").fill("gente-59");
        assertThat(people).hasCount(2);
        page.locator("select[name=subject]").selectOption(new SelectOption().setLabel("gente-59"));
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Filtrar")).click();
        assertThat(page).hasURL(Pattern.compile("subject="));
        assertThat(page.getByText("Ninguna petición coincide con estos filtros.")).isVisible();

        page.reload();
        assertThat(page.locator("select[name=subject] option:checked")).hasText("gente-59");

        org.assertj.core.api.Assertions.assertThat(asked).as("never every subject, never every credential")
                .isNotEmpty()
                .allSatisfy(url -> org.assertj.core.api.Assertions.assertThat(url).matches(
                        ".*/api/(subjects\\?.*limit=50.*|subjects\\?id=[^&]+|credentials\\?id=.*)"));
        org.assertj.core.api.Assertions.assertThat(asked).anySatisfy(url -> org.assertj.core.api.Assertions
                .assertThat(url).contains("/api/credentials?id=").contains(issued.get(1).id()));
    }

    @Test
    void theUsersScreenPagesByLoginAndSearchesOnTheServer() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        List<String> asked = new CopyOnWriteArrayList<>();
        page.onRequest(request -> {
            if ((request.url().contains("/api/subjects") || request.url().contains("/api/credentials"))
                    && request.frame().url().contains("/admin/usuarios")) {
                asked.add(request.url());
            }
        });
        nav(page, "Usuarios");
        Locator users = page.locator("[data-testid^=subject-]");
        Locator pages = page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Páginas de usuarios"));

        assertThat(users).hasCount(50);
        assertThat(users.first()).containsText("gente-00");
        pages.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Siguiente →")).click();
        assertThat(users).hasCount(14);
        assertThat(users.first()).containsText("gente-50");
        // Counted by the server for the page's rows: titular-a's 40 credentials, 4 of them revoked.
        assertThat(page.getByTestId("credentials-of-titular-a")).hasText("Credenciales (36)");

        page.locator("input[name=search]").fill("TITULAR");
        assertThat(users).hasCount(3);
        assertThat(pages).hasCount(0);
        page.locator("select[name=kind]").selectOption("bot");
        assertThat(page.getByText("Ningún usuario coincide.")).isVisible();

        org.assertj.core.api.Assertions.assertThat(asked).as("no list of every credential, no list of every user")
                .allSatisfy(url -> org.assertj.core.api.Assertions.assertThat(url).contains("/api/subjects?")
                        .contains("limit=50"));
        org.assertj.core.api.Assertions.assertThat(asked).anySatisfy(url -> org.assertj.core.api.Assertions
                .assertThat(url).contains("q=TITULAR").contains("kind=bot"));
    }
}
