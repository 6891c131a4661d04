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
import dev.klave.credential.Credential;
import dev.klave.store.Database;
import dev.klave.store.JdbiCredentialStore;
import dev.klave.store.JdbiSubjectStore;
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

    @BeforeAll
    void seed() {
        Database database = web.klave.klave().database();
        JdbiSubjectStore subjects = new JdbiSubjectStore(database);
        JdbiCredentialStore credentials = new JdbiCredentialStore(database);
        Instant now = web.clock.instant();
        List<Subject> owners = List.of("titular-a", "titular-b", "titular-c").stream()
                .map(login -> Subject.newPerson(new Login(login), login, Optional.empty(), false, false, now))
                .toList();
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
