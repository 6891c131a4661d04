package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static dev.klave.web.AdminJourneyBrowserTest.nav;
import static dev.klave.web.AdminJourneyBrowserTest.signIn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.agent.approval.Actor;
import dev.klave.agent.approval.HeldCall;
import dev.klave.cluster.ClusterId;
import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.access.Permission;
import dev.klave.store.JdbiAgentSessionStore;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingLoopbackListener;
import dev.klave.testing.TestingPeople;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent login as a person meets it (spec 3 §4 "Agent login"; issue 31 items 3 and 6): a person
 * not signed in opens the consent page, signs in and lands back on it, chooses among their own
 * permissions and approves — and the agent's loopback listener receives code, state and iss, a
 * code the token endpoint honours; denying sends access_denied; an answer leaving the machine is
 * warned about; a sign-in never follows a page that is not Klave's own. Then the sessions: the
 * person's own in /mi-cuenta with what their agents wait for, ended there; everyone's on the
 * agents page for administrators, ended there.
 */
class AgentLoginBrowserTest extends BrowserTestBase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final String APP_REDIRECT = "com.example.agente:/oauth/callback";
    private static final String VIEW_ALL = "view: ver (solo lectura), en todo el cluster de prod-1";

    private TestingLoopbackListener loopback;
    private String loopbackRedirect;
    private String loopbackClient;
    private String appClient;
    private SubjectId marta;

    @BeforeAll
    void anAgentAndAPersonWithPermissions() throws IOException {
        loopback = TestingLoopbackListener.start();
        loopbackRedirect = loopback.redirect();
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
        TestingPeople.signUp(web.klave, "marta", false);
        marta = new SubjectId(web.idOf(admin, "marta"));
        grant("marta", "view", "*");
        grant("marta", "edit", "team-a");
        loopbackClient = register(loopbackRedirect, "Agente de pruebas");
        appClient = register(APP_REDIRECT, "Agente de escritorio");
    }

    @AfterAll
    void stopTheListener() {
        if (loopback != null) {
            loopback.close();
        }
    }

    private void grant(String login, String tier, String scope) {
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + web.idOf(admin, login) + "\",\"cluster_id\":"
                + "\"prod-1\",\"tier\":\"" + tier + "\",\"scope\":\"" + scope + "\"}", admin);
    }

    private String register(String redirect, String name) {
        HttpResponse<String> registered = web.http.send("POST", "/oauth/register", "{\"redirect_uris\":[\"" + redirect
                + "\"],\"client_name\":\"" + name + "\"}", "Content-Type", "application/json");
        org.assertj.core.api.Assertions.assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
        return json(registered.body()).path("client_id").asText();
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the agent does first: /oauth/authorize, which answers the consent page's address. */
    private String consentPage(String clientId, String redirect, String state) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", clientId);
        query.put("redirect_uri", redirect);
        query.put("code_challenge", CHALLENGE);
        query.put("code_challenge_method", "S256");
        query.put("state", state);
        query.put("resource", web.baseUrl + "/mcp");
        StringBuilder text = new StringBuilder();
        query.forEach((name, value) -> text.append(text.isEmpty() ? "" : "&").append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        HttpResponse<String> authorized = web.http.get("/oauth/authorize?" + text);
        org.assertj.core.api.Assertions.assertThat(authorized.statusCode()).as(authorized.body()).isEqualTo(302);
        String location = authorized.headers().firstValue("Location").orElseThrow();
        return location.substring(location.indexOf("/agents/authorize/"));
    }

    private static Map<String, String> queryOf(String rawQuery) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            values.put(pair.substring(0, equals), URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return values;
    }

    private static void signInHere(Page page, String login) {
        page.getByLabel("Usuario").fill(login);
        page.getByLabel("Contraseña").fill(TestingPeople.PASSWORD);
        button(page, "Entrar").click();
    }

    private static void fitsAndPassesAxe(Page page, String screen, int width) {
        Object scrolled = page.evaluate("() => document.documentElement.scrollWidth");
        org.assertj.core.api.Assertions.assertThat(((Number) scrolled).intValue()).as(screen + " at " + width)
                .isLessThanOrEqualTo(width);
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).as(screen).isEmpty();
    }

    private Optional<AgentSession> stored(String id) {
        return new JdbiAgentSessionStore(web.klave.klave().database()).findById(id);
    }

    @Test
    void aPersonNotSignedInSignsInChoosesAPermissionAndTheAgentReceivesTheCode() {
        String consent = consentPage(loopbackClient, loopbackRedirect, "estado-1");
        Page page = browser.open(web.baseUrl);

        page.navigate(consent);
        // The pattern runs as JavaScript (no \Q…\E): the address's "." and "*" escaped by hand.
        assertThat(page).hasURL(Pattern.compile("/login\\?next=" + URLEncoder.encode(consent, StandardCharsets.UTF_8)
                .replace(".", "\\.").replace("*", "\\*") + "$"));
        assertThat(page.getByTestId("login-for-agent")).containsText("Un agente te pide acceso");
        signInHere(page, "marta");

        assertThat(page).hasURL(web.baseUrl + consent);
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Autorizar a un agente")))
                .isVisible();
        assertThat(page.getByTestId("consent-client-name")).hasText("Agente de pruebas");
        assertThat(page.getByTestId("consent-client-id")).hasText(loopbackClient);
        assertThat(page.getByTestId("consent-redirect")).hasText(loopbackRedirect);
        assertThat(page.getByTestId("consent-loopback")).isVisible();
        assertThat(page.getByTestId("consent-warning")).hasCount(0);
        Locator choices = page.getByTestId("consent-choices").getByRole(AriaRole.CHECKBOX);
        assertThat(choices).hasCount(2);
        for (Locator choice : choices.all()) {
            assertThat(choice).not().isChecked();
        }
        assertThat(page.getByLabel("Las escrituras esperan mi aprobación")).isChecked();
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        TestingBrowser.screenshot(page, "agent-consent");

        page.getByLabel(VIEW_ALL).check();
        button(page, "Autorizar").click();

        page.waitForURL(Pattern.compile("^" + Pattern.quote(loopbackRedirect) + "\\?.*"));
        Map<String, String> answer = queryOf(URI.create(page.url()).getRawQuery());
        org.assertj.core.api.Assertions.assertThat(answer).containsKey("code").containsEntry("state", "estado-1")
                .containsEntry("iss", web.baseUrl);
        org.assertj.core.api.Assertions.assertThat(loopback.received()).anySatisfy(query -> org.assertj.core.api.Assertions
                .assertThat(queryOf(query)).containsEntry("code", answer.get("code")));
        HttpResponse<String> token = web.http.send("POST", "/oauth/token", "grant_type=authorization_code&code="
                + URLEncoder.encode(answer.get("code"), StandardCharsets.UTF_8) + "&code_verifier=" + VERIFIER
                + "&redirect_uri=" + URLEncoder.encode(loopbackRedirect, StandardCharsets.UTF_8) + "&client_id="
                + URLEncoder.encode(loopbackClient, StandardCharsets.UTF_8) + "&resource="
                + URLEncoder.encode(web.baseUrl + "/mcp", StandardCharsets.UTF_8),
                "Content-Type", "application/x-www-form-urlencoded");
        org.assertj.core.api.Assertions.assertThat(token.statusCode()).as(token.body()).isEqualTo(200);
        AgentSession session = web.klave.hooks().agentTokens().sessionOf(json(token.body())
                .path("access_token").asText()).orElseThrow();
        org.assertj.core.api.Assertions.assertThat(session.person()).isEqualTo(marta);
        org.assertj.core.api.Assertions.assertThat(session.permissions())
                .containsExactly(new Permission(new ClusterId("prod-1"), Tier.VIEW, Scope.ALL));
        org.assertj.core.api.Assertions.assertThat(session.writesNeedApproval()).isTrue();
    }

    @Test
    void choosingNothingIsRefusedOnThePageAndDenyingSendsAccessDenied() {
        String consent = consentPage(loopbackClient, loopbackRedirect, "estado-2");
        Page page = browser.open(web.baseUrl);
        signIn(page, "marta");
        page.navigate(consent);

        button(page, "Autorizar").click();
        assertThat(page.getByTestId("consent-error")).hasText("Elige al menos un permiso para el agente, o deniega el acceso.");
        assertThat(page).hasURL(web.baseUrl + consent);

        button(page, "Denegar").click();

        page.waitForURL(Pattern.compile("^" + Pattern.quote(loopbackRedirect) + "\\?.*"));
        Map<String, String> answer = queryOf(URI.create(page.url()).getRawQuery());
        org.assertj.core.api.Assertions.assertThat(answer).containsEntry("error", "access_denied")
                .containsEntry("state", "estado-2").containsEntry("iss", web.baseUrl).doesNotContainKey("code");
    }

    @Test
    void anAnswerLeavingTheMachineIsWarnedAboutAndFitsAPhone() {
        String consent = consentPage(appClient, APP_REDIRECT, "estado-3");
        Page page = browser.open(web.baseUrl, 360, 800);
        page.navigate(consent);
        signInHere(page, "marta");

        Locator warning = page.getByTestId("consent-warning");
        assertThat(warning).containsText("la respuesta sale de este equipo");
        assertThat(page.getByTestId("consent-redirect")).hasText(APP_REDIRECT);
        assertThat(page.getByTestId("consent-loopback")).hasCount(0);
        fitsAndPassesAxe(page, "the consent page", 360);
        TestingBrowser.screenshot(page, "agent-consent-app-360");
    }

    @Test
    void someoneWithNothingToGiveMayOnlyDenyAndAnUnknownRequestSaysSo() {
        TestingPeople.signUp(web.klave, "sin-permisos", false);
        String consent = consentPage(loopbackClient, loopbackRedirect, "estado-4");
        Page page = browser.open(web.baseUrl);
        signIn(page, "sin-permisos");
        page.navigate(consent);

        assertThat(page.getByTestId("consent-nothing")).containsText("No tienes ningún permiso en vigor");
        assertThat(button(page, "Autorizar")).hasCount(0);
        assertThat(button(page, "Denegar")).isVisible();

        page.navigate("/agents/authorize/eyJjIjoieCJ9*firma-falsa");
        assertThat(page.getByRole(AriaRole.ALERT)).containsText("no existe o ha caducado");
        assertThat(button(page, "Autorizar")).hasCount(0);
    }

    @Test
    void aSignInNeverFollowsAPageThatIsNotKlavesOwn() {
        for (String hostile : List.of("//evil.example", "/\\evil.example", "https://evil.example", "/%2F%2Fevil",
                "javascript:alert(1)", "/api/auth/logout", "/mi-cuenta\r\nSet-Cookie: a=b")) {
            Page page = browser.open(web.baseUrl);
            page.navigate("/login?next=" + URLEncoder.encode(hostile, StandardCharsets.UTF_8));
            signInHere(page, "marta");

            assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Mi cuenta")))
                    .isVisible();
            assertThat(page).hasURL(web.baseUrl + "/mi-cuenta");
            page.context().close();
        }
    }

    /** A session marta opened for the loopback client (view on the whole cluster), with its code spent. */
    private AgentSession martasSession() {
        AgentTokens tokens = web.klave.hooks().agentTokens();
        return tokens.consent(marta, loopbackClient, List.of(new Permission(new ClusterId("prod-1"), Tier.VIEW,
                Scope.ALL)), true, "password", loopbackRedirect, CHALLENGE).session();
    }

    private String holdWriteOf(AgentSession session) {
        return web.klave.hooks().approvals().hold(new Actor(marta, Optional.empty(),
                Optional.of(session.id())), Optional.of(marta), new ClusterId("prod-1"), "team-a", "scale", "patch",
                "deployments", "web", "arguments-" + session.id(), new HeldCall(Method.PATCH,
                        ClusterPath.of("apis", "apps", "v1", "namespaces", "team-a", "deployments", "web", "scale"),
                        Query.NONE,
                        Optional.of("{\"spec\":{\"replicas\":3}}"), Optional.of("application/merge-patch+json")),
                "{\"cluster\":\"prod-1\",\"namespace\":\"team-a\",\"verb\":\"patch\",\"resource\":\"deployments\","
                        + "\"name\":\"web\",\"current\":null,\"result\":null,\"changes\":[]}").id();
    }

    @Test
    void aPersonSeesTheirAgentsAndWhatTheyWaitForAndEndsASession() {
        AgentSession session = martasSession();
        String write = holdWriteOf(session);
        Page page = browser.open(web.baseUrl);
        signIn(page, "marta");

        Locator row = page.getByTestId("session-" + session.id());
        assertThat(row).containsText("Agente de pruebas");
        assertThat(row).containsText(VIEW_ALL);
        assertThat(row).containsText("esperan aprobación");
        assertThat(row).containsText("nunca");
        assertThat(row.getByTestId("session-state")).hasText("abierta");
        Locator request = page.getByTestId("own-request-" + write);
        assertThat(request).containsText("Escritura: modificar deployments/web en team-a (prod-1)");
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        TestingBrowser.screenshot(page, "mi-cuenta-agentes");

        row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Terminar la sesión de Agente de pruebas"))
                .click();
        Locator dialog = page.getByRole(AriaRole.DIALOG);
        assertThat(dialog).containsText("Agente de pruebas (tu agente) dejará de poder actuar en Klave");
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Terminar sesión")).click();

        assertThat(row.getByTestId("session-state")).containsText("terminada el");
        assertThat(row.getByTestId("session-state")).containsText("Terminada por la persona que la autorizó.");
        assertThat(row.getByRole(AriaRole.BUTTON)).hasCount(0);
        AgentSession ended = stored(session.id()).orElseThrow();
        org.assertj.core.api.Assertions.assertThat(ended.endedAt()).isPresent();
        org.assertj.core.api.Assertions.assertThat(ended.endReason()).contains("terminada por la persona que la autorizó");

        request.getByRole(AriaRole.LINK).click();
        assertThat(page).hasURL(web.baseUrl + "/agents/requests/" + write);
        assertThat(page.getByTestId("request-headline")).containsText("deployments/web");
    }

    @Test
    void anAdministratorEndsSomeoneElsesSession() {
        AgentSession session = martasSession();
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");
        nav(page, "Agentes");

        Locator row = page.getByTestId("session-" + session.id());
        assertThat(row).containsText("marta");
        assertThat(row).containsText("Agente de pruebas");
        org.assertj.core.api.Assertions.assertThat(Accessibility.violations(page)).isEmpty();
        row.getByRole(AriaRole.BUTTON).click();
        Locator dialog = page.getByRole(AriaRole.DIALOG);
        assertThat(dialog).containsText("el agente de marta");
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Terminar sesión")).click();

        assertThat(row.getByTestId("session-state")).containsText("Terminada por el administrador root.");
        org.assertj.core.api.Assertions.assertThat(stored(session.id()).orElseThrow().endReason())
                .contains("terminada por el administrador root");
    }

    @Test
    void onAPhoneTheAgentsOfMiCuentaAndOfTheAgentsPageFitTheScreen() {
        AgentSession session = martasSession();
        holdWriteOf(session);
        Page page = browser.open(web.baseUrl, 360, 800);
        signIn(page, "marta");
        page.getByTestId("agent-sessions").waitFor();
        fitsAndPassesAxe(page, "/mi-cuenta", 360);
        TestingBrowser.screenshot(page, "mi-cuenta-agentes-360");

        Page administrator = browser.open(web.baseUrl, 360, 800);
        signIn(administrator, "root");
        administrator.navigate("/agentes");
        administrator.getByTestId("agent-sessions").waitFor();
        fitsAndPassesAxe(administrator, "/agentes", 360);
        TestingBrowser.screenshot(administrator, "agentes-sesiones-360");
    }
}
