package dev.klave.account;

import static dev.klave.testing.TestingPeople.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Accounts, links and sessions through the API (spec 1 §4 "Subjects", "Session and own account",
 * §5), against a real server; run on SQLite and on PostgreSQL by the two subclasses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AccountFlowTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private TestingKlave klave;
    private TestingHttp http;
    private String admin;

    protected abstract TestingKlave startKlave(TestingClock clock);

    @BeforeAll
    void start() {
        klave = startKlave(new TestingClock());
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private static String login(String prefix) {
        return prefix + "-" + SEQUENCE.incrementAndGet();
    }

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(response.body(), e);
        }
    }

    private static void assertError(HttpResponse<String> response, int status, String text) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.body()).isEqualTo("{\"error\":\"" + text + "\"}");
    }

    private HttpResponse<String> asAdmin(String method, String path, String body) {
        return http.send(method, path, body, "Cookie", admin);
    }

    private String createPerson(String login, boolean isAdmin) {
        HttpResponse<String> created = asAdmin("POST", "/api/subjects",
                "{\"login\":\"" + login + "\",\"display_name\":\"Persona " + login + "\",\"email\":\"" + login
                        + "@example.com\",\"is_admin\":" + isAdmin + "}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return json(created).get("id").asText();
    }

    private String complete(String token, String password) {
        HttpResponse<String> completed = http.send("POST", "/api/auth/link/complete",
                "{\"token\":\"" + token + "\",\"password\":\"" + password + "\"}");
        assertThat(completed.statusCode()).as(completed.body()).isEqualTo(200);
        return TestingPeople.cookieOf(completed);
    }

    private HttpResponse<String> changePassword(String cookie, String current, String next) {
        return http.send("POST", "/api/me/password", "{\"current_password\":\"" + current + "\",\"new_password\":\""
                + next + "\"}", "Cookie", cookie);
    }

    private String signUpViaApi(String login, boolean isAdmin) {
        HttpResponse<String> created = asAdmin("POST", "/api/subjects",
                "{\"login\":\"" + login + "\",\"is_admin\":" + isAdmin + "}");
        return complete(TestingPeople.tokenOf(json(created).get("invite_link").asText()), PASSWORD);
    }

    private String idOf(String login) {
        for (JsonNode subject : json(asAdmin("GET", "/api/subjects", null))) {
            if (subject.get("login").asText().equals(login)) {
                return subject.get("id").asText();
            }
        }
        throw new AssertionError("no subject " + login);
    }

    @Test
    void invitationIsLookedUpThenCompletedIntoASession() {
        String login = login("ana");
        HttpResponse<String> created = asAdmin("POST", "/api/subjects",
                "{\"login\":\"" + login + "\",\"display_name\":\"Ana Pérez\",\"email\":\"ana@example.com\",\"is_admin\":false}");
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode person = json(created);
        assertThat(person.get("kind").asText()).isEqualTo("person");
        String link = person.get("invite_link").asText();
        assertThat(link).matches("http://localhost:8080/cuenta#kli_[A-Za-z0-9_-]{43}");
        String token = TestingPeople.tokenOf(link);

        HttpResponse<String> lookup = http.send("POST", "/api/auth/link", "{\"token\":\"" + token + "\"}");
        assertThat(lookup.statusCode()).isEqualTo(200);
        JsonNode view = json(lookup);
        assertThat(view.get("login").asText()).isEqualTo(login);
        assertThat(view.get("display_name").asText()).isEqualTo("Ana Pérez");
        assertThat(view.get("purpose").asText()).isEqualTo("invitation");
        assertThat(view.get("expires_at").asText()).isEqualTo("2026-11-28T10:00:00Z");
        assertThat(view.get("forge_required").asBoolean()).isFalse();

        HttpResponse<String> completed = http.send("POST", "/api/auth/link/complete",
                "{\"token\":\"" + token + "\",\"password\":\"" + PASSWORD + "\"}");
        assertThat(completed.statusCode()).isEqualTo(200);
        assertThat(completed.headers().firstValue("Set-Cookie").orElseThrow())
                .matches("service_session=[A-Za-z0-9_-]{43}\\.[A-Za-z0-9_-]{43}; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax");
        String cookie = TestingPeople.cookieOf(completed);
        assertThat(json(completed).get("session_expires_at").asText()).as("the sign-in's answer: 12 h from now")
                .isEqualTo(Instant.parse(view.get("expires_at").asText()).minus(Duration.ofHours(72))
                        .plus(Duration.ofHours(12)).toString());

        JsonNode me = json(http.get("/api/me", "Cookie", cookie));
        assertThat(me.get("login").asText()).isEqualTo(login);
        assertThat(me.get("display_name").asText()).isEqualTo("Ana Pérez");
        assertThat(me.get("email").asText()).isEqualTo("ana@example.com");
        assertThat(me.get("is_admin").asBoolean()).isFalse();
        assertThat(me.get("has_password").asBoolean()).isTrue();
        assertThat(me.get("can_use_password").asBoolean()).isTrue();
        assertThat(me.get("break_glass").asBoolean()).isFalse();
        assertThat(me.get("forge").isNull()).isTrue();

        assertError(http.send("POST", "/api/auth/link", "{\"token\":\"" + token + "\"}"), 410,
                "el enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador");
        assertError(http.send("POST", "/api/auth/link/complete", "{\"token\":\"" + token + "\",\"password\":\"" + PASSWORD
                + "x\"}"), 410, "el enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador");
        String second = TestingPeople.signIn(http, login, PASSWORD);
        assertThat(second).isNotEqualTo(cookie);
    }

    @Test
    void unknownOrMalformedLinkIs404() {
        assertError(http.send("POST", "/api/auth/link", "{\"token\":\"kli_" + "A".repeat(43) + "\"}"), 404,
                "enlace no válido");
        assertError(http.send("POST", "/api/auth/link", "{\"token\":\"nonsense\"}"), 404, "enlace no válido");
        assertError(http.send("POST", "/api/auth/link/complete", "{\"token\":\"kli_x\",\"password\":\"" + PASSWORD + "\"}"),
                404, "enlace no válido");
    }

    @Test
    void passwordPolicyIsExplainedAndSpendsNothing() {
        String login = login("pol");
        String token = TestingPeople.invite(klave, login, false);

        assertError(http.send("POST", "/api/auth/link/complete", "{\"token\":\"" + token + "\",\"password\":\"short\"}"),
                400, "la contraseña debe tener al menos 12 caracteres");
        assertError(http.send("POST", "/api/auth/link/complete", "{\"token\":\"" + token + "\",\"password\":\"" + login
                + "\"}"), login.length() >= 12 ? 400 : 400, login.length() >= 12
                ? "la contraseña no puede ser igual al login" : "la contraseña debe tener al menos 12 caracteres");
        assertError(http.send("POST", "/api/auth/link/complete", "{\"token\":\"" + token + "\"}"), 400,
                "falta la contraseña");

        complete(token, PASSWORD);
    }

    @Test
    void passwordEqualToTheLoginIsRefused() {
        String login = "a-rather-long-login-" + SEQUENCE.incrementAndGet();
        String token = TestingPeople.invite(klave, login, false);

        assertError(http.send("POST", "/api/auth/link/complete", "{\"token\":\"" + token + "\",\"password\":\"" + login
                + "\"}"), 400, "la contraseña no puede ser igual al login");
    }

    @Test
    void passwordThatIsTheLoginRepeatedIsRefusedAndSpendsNothing() {
        String login = "ana-" + SEQUENCE.incrementAndGet();
        String token = TestingPeople.invite(klave, login, false);

        assertError(http.send("POST", "/api/auth/link/complete", "{\"token\":\"" + token + "\",\"password\":\""
                + login.toUpperCase() + login + login + "\"}"), 400, "la contraseña no puede ser el login repetido");

        String session = complete(token, PASSWORD);
        assertError(changePassword(session, PASSWORD, login.repeat(3)), 400,
                "la contraseña no puede ser el login repetido");
        TestingPeople.signIn(http, login, PASSWORD);
    }

    @Test
    void newPasswordEqualToTheCurrentOneIsRefused() {
        String login = login("same");
        String current = signUpViaApi(login, false);
        String other = TestingPeople.signIn(http, login, PASSWORD);

        assertError(changePassword(current, PASSWORD, PASSWORD), 400,
                "la contraseña nueva debe ser distinta de la actual");

        assertThat(http.get("/api/me", "Cookie", other).statusCode()).as("no session closed").isEqualTo(200);
        TestingPeople.signIn(http, login, PASSWORD);
    }

    @Test
    void aResetLinkMaySetThePasswordItReplaces() {
        // Whoever holds a reset link does not know the old password; refusing it there would tell
        // them what it was, so the rule applies only to a change made with the current password.
        String login = login("forgot");
        signUpViaApi(login, false);
        HttpResponse<String> reset = asAdmin("POST", "/api/subjects/" + idOf(login) + "/reset-link", null);

        complete(TestingPeople.tokenOf(json(reset).get("reset_link").asText()), PASSWORD);

        TestingPeople.signIn(http, login, PASSWORD);
    }

    @Test
    void everySignInFailureLooksTheSame() {
        String login = login("eva");
        signUpViaApi(login, false);
        String pending = login("pending");
        TestingPeople.invite(klave, pending, false);
        String disabled = login("gone");
        signUpViaApi(disabled, false);
        asAdmin("POST", "/api/subjects/" + idOf(disabled) + "/disable", null);
        String bot = login("bot");
        asAdmin("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"" + bot + "\"}");

        List<HttpResponse<String>> failures = new ArrayList<>();
        failures.add(TestingPeople.attempt(http, login, "wrong password!"));
        failures.add(TestingPeople.attempt(http, "nobody-at-all", PASSWORD));
        failures.add(TestingPeople.attempt(http, "Not A Login", PASSWORD));
        failures.add(TestingPeople.attempt(http, pending, PASSWORD));
        failures.add(TestingPeople.attempt(http, disabled, PASSWORD));
        failures.add(TestingPeople.attempt(http, bot, PASSWORD));

        for (HttpResponse<String> failure : failures) {
            assertError(failure, 401, "usuario o contraseña incorrectos");
            assertThat(failure.headers().firstValue("Set-Cookie")).isEmpty();
        }
    }

    @Test
    void routesNeedASessionAndAdminRoutesAnAdministrator() {
        assertError(http.get("/api/me"), 401, "sesión no iniciada");
        assertError(http.get("/api/subjects"), 401, "sesión no iniciada");
        assertError(http.get("/api/me", "Cookie", "service_session=forged.value"), 401, "sesión caducada o no válida");
        assertError(http.get("/api/me", "Cookie", "service_session=" + "A".repeat(43) + "." + "B".repeat(43)), 401,
                "sesión caducada o no válida");

        String person = signUpViaApi(login("plain"), false);
        assertError(http.get("/api/subjects", "Cookie", person), 403, "solo para administradores");
        assertError(http.get("/api/control-events", "Cookie", person), 403, "solo para administradores");
        assertError(http.send("POST", "/api/subjects", "{\"login\":\"x\"}", "Cookie", person), 403,
                "solo para administradores");
        assertThat(http.get("/api/me", "Cookie", "other=1; " + person).statusCode()).isEqualTo(200);
    }

    @Test
    void logoutClosesEverySessionOfThePerson() {
        String login = login("out");
        String first = signUpViaApi(login, false);
        String second = TestingPeople.signIn(http, login, PASSWORD);

        HttpResponse<String> logout = http.send("POST", "/api/auth/logout", null, "Cookie", first);

        assertThat(logout.statusCode()).isEqualTo(204);
        assertThat(logout.headers().firstValue("Set-Cookie")).contains(
                "service_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
        assertError(http.get("/api/me", "Cookie", first), 401, "sesión caducada o no válida");
        assertError(http.get("/api/me", "Cookie", second), 401, "sesión caducada o no válida");
    }

    @Test
    void passwordChangeKeepsThisSessionAndClosesTheOthers() {
        String login = login("pwd");
        String current = signUpViaApi(login, false);
        String other = TestingPeople.signIn(http, login, PASSWORD);

        assertError(changePassword(current, "not it at all", "a brand new passphrase"), 400,
                "la contraseña actual no es correcta");
        assertError(changePassword(current, PASSWORD, "short"), 400, "la contraseña debe tener al menos 12 caracteres");
        HttpResponse<String> changed = changePassword(current, PASSWORD, "a brand new passphrase");

        assertThat(changed.statusCode()).isEqualTo(204);
        assertThat(http.get("/api/me", "Cookie", current).statusCode()).isEqualTo(200);
        assertError(http.get("/api/me", "Cookie", other), 401, "sesión caducada o no válida");
        assertError(TestingPeople.attempt(http, login, PASSWORD),
                401, "usuario o contraseña incorrectos");
        TestingPeople.signIn(http, login, "a brand new passphrase");
    }

    @Test
    void resetLinkClosesSessionsAndRevokesPendingLinks() {
        String login = login("reset");
        String session = signUpViaApi(login, false);
        String id = idOf(login);
        HttpResponse<String> firstReset = asAdmin("POST", "/api/subjects/" + id + "/reset-link", null);
        String firstToken = TestingPeople.tokenOf(json(firstReset).get("reset_link").asText());

        HttpResponse<String> secondReset = asAdmin("POST", "/api/subjects/" + id + "/reset-link", null);

        assertThat(secondReset.statusCode()).isEqualTo(200);
        assertThat(json(secondReset).get("expires_at").asText()).isEqualTo("2026-11-26T10:00:00Z");
        assertError(http.get("/api/me", "Cookie", session), 401, "sesión caducada o no válida");
        assertError(http.send("POST", "/api/auth/link", "{\"token\":\"" + firstToken + "\"}"), 410,
                "el enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador");
        String token = TestingPeople.tokenOf(json(secondReset).get("reset_link").asText());
        assertThat(json(http.send("POST", "/api/auth/link", "{\"token\":\"" + token + "\"}")).get("purpose").asText())
                .isEqualTo("reset");
        complete(token, "another long passphrase");
        TestingPeople.signIn(http, login, "another long passphrase");
    }

    @Test
    void disableClosesSessionsAndRevokesLinksAndEnableRestoresNone() {
        String login = login("dis");
        String session = signUpViaApi(login, false);
        String id = idOf(login);
        String reset = TestingPeople.tokenOf(json(asAdmin("POST", "/api/subjects/" + id + "/reset-link", null))
                .get("reset_link").asText());
        session = TestingPeople.signIn(http, login, PASSWORD);

        HttpResponse<String> disabled = asAdmin("POST", "/api/subjects/" + id + "/disable", null);

        assertThat(disabled.statusCode()).isEqualTo(200);
        assertThat(json(disabled).get("enabled").asBoolean()).isFalse();
        assertError(http.get("/api/me", "Cookie", session), 401, "sesión caducada o no válida");
        assertError(asAdmin("POST", "/api/subjects/" + id + "/reset-link", null), 409, "la cuenta está deshabilitada");

        HttpResponse<String> enabled = asAdmin("POST", "/api/subjects/" + id + "/enable", null);

        assertThat(json(enabled).get("enabled").asBoolean()).isTrue();
        assertError(http.get("/api/me", "Cookie", session), 401, "sesión caducada o no válida");
        assertError(http.send("POST", "/api/auth/link", "{\"token\":\"" + reset + "\"}"), 410,
                "el enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador");
        TestingPeople.signIn(http, login, PASSWORD);
    }

    @Test
    void administratorClosesSomeoneElsesSessions() {
        String login = login("kick");
        String session = signUpViaApi(login, false);

        HttpResponse<String> logout = asAdmin("POST", "/api/subjects/" + idOf(login) + "/logout", null);

        assertThat(logout.statusCode()).isEqualTo(204);
        assertError(http.get("/api/me", "Cookie", session), 401, "sesión caducada o no válida");
    }

    @Test
    void rolePatchIsSeenOnTheNextRequest() {
        String login = login("promo");
        String session = signUpViaApi(login, false);
        String id = idOf(login);

        HttpResponse<String> patched = asAdmin("PATCH", "/api/subjects/" + id,
                "{\"is_admin\":true,\"display_name\":\"  Promovida \",\"email\":null}");

        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        assertThat(json(patched).get("display_name").asText()).isEqualTo("Promovida");
        assertThat(json(patched).get("email").isNull()).isTrue();
        assertThat(http.get("/api/subjects", "Cookie", session).statusCode()).isEqualTo(200);
        asAdmin("PATCH", "/api/subjects/" + id, "{\"is_admin\":false}");
        assertError(http.get("/api/subjects", "Cookie", session), 403, "solo para administradores");
    }

    @Test
    void badPatchesAreRefused() {
        String id = createPerson(login("patch"), false);

        assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"login\":\"renamed\"}"), 400,
                "cuerpo JSON no válido: campo desconocido «login»");
        assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"is_admin\":\"yes\"}"), 400, "cuerpo JSON no válido");
        assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"email\":\"not-an-address\"}"), 400, "e-mail no válido");
        assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"display_name\":\"   \"}"), 400,
                "nombre no válido: de 1 a 200 caracteres");
        assertError(asAdmin("PATCH", "/api/subjects/00000000-0000-0000-0000-000000000000", "{}"), 404,
                "usuario no encontrado");
        assertError(asAdmin("POST", "/api/subjects/not-an-id/disable", null), 404, "usuario no encontrado");
    }

    /**
     * Spec 2 §5 rule 7: spaces are trimmed, nothing else. An address with a control character (tab
     * included) or other whitespace could never be found by e-mail, so it is refused, not cleaned.
     */
    @Test
    void anAddressWithAControlCharacterOrOtherWhitespaceIsRefusedAndSpacesAreTrimmed() {
        String login = login("spaces");
        String id = createPerson(login, false);

        for (String hostile : List.of("lin@example.com\\u3000", "\\u2003kim@example.com\\u001f",
                "\\tana@example.com", "ana@example.com\\u00a0", "ana@exa\\u0085mple.com", "ana@example.com\\u007f")) {
            assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"email\":\"" + hostile + "\"}"), 400,
                    "e-mail no válido");
            assertError(asAdmin("POST", "/api/subjects", "{\"login\":\"" + login("hostile") + "\",\"email\":\""
                    + hostile + "\"}"), 400, "e-mail no válido");
        }
        HttpResponse<String> trimmed = asAdmin("PATCH", "/api/subjects/" + id, "{\"email\":\"  Ana@Example.com \"}");
        assertThat(trimmed.statusCode()).as(trimmed.body()).isEqualTo(200);
        assertThat(json(trimmed).get("email").asText()).isEqualTo("Ana@Example.com");
    }

    @Test
    void loginsAreValidatedAndNeverReused() {
        String login = login("once");
        String id = createPerson(login, false);
        asAdmin("POST", "/api/subjects/" + id + "/disable", null);

        assertError(asAdmin("POST", "/api/subjects", "{\"login\":\"" + login + "\"}"), 409,
                "ese login ya existe (los logins no se reutilizan)");
        assertError(asAdmin("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"" + login + "\"}"), 409,
                "ese login ya existe (los logins no se reutilizan)");
        assertError(asAdmin("POST", "/api/subjects", "{\"login\":\"Ana_Admin\"}"), 400,
                "login no válido: usa de 1 a 63 letras minúsculas, dígitos, '-' o '.', empezando y acabando en letra o dígito");
        assertError(asAdmin("POST", "/api/subjects", "{\"display_name\":\"Sin login\"}"), 400,
                "login no válido: usa de 1 a 63 letras minúsculas, dígitos, '-' o '.', empezando y acabando en letra o dígito");
        assertError(asAdmin("POST", "/api/subjects", "{\"login\":\"x\",\"password\":\"p\"}"), 400,
                "cuerpo JSON no válido: campo desconocido «password»");
    }

    @Test
    void botsHaveNeitherInvitationNorPasswordNorEmail() {
        String login = login("ci");
        HttpResponse<String> created = asAdmin("POST", "/api/subjects",
                "{\"kind\":\"bot\",\"login\":\"" + login + "\",\"display_name\":\"CI\"}");

        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode bot = json(created);
        assertThat(bot.get("kind").asText()).isEqualTo("bot");
        assertThat(bot.has("invite_link")).isFalse();
        assertThat(bot.get("has_password").asBoolean()).isFalse();
        String id = bot.get("id").asText();
        assertError(asAdmin("POST", "/api/subjects/" + id + "/reset-link", null), 409,
                "los bots no entran en la interfaz: no tienen contraseña ni enlaces");
        assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"email\":\"ci@example.com\"}"), 400,
                "los bots no tienen e-mail, contraseña ni rol de administrador");
        assertError(asAdmin("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"" + login("x")
                + "\",\"is_admin\":true}"), 400, "los bots no tienen e-mail, contraseña ni rol de administrador");
        assertError(asAdmin("POST", "/api/subjects", "{\"kind\":\"robot\",\"login\":\"" + login("y") + "\"}"), 400,
                "kind no válido: usa bot, o nada para una persona");
    }

    /** Spec 3 §4 "Write approval flow": a bot's writes-need-approval setting, set by an administrator. */
    @Test
    void aBotsWritesNeedApprovalIsSetThroughThePatchAndShownAndEvented() {
        String login = login("agent");
        JsonNode created = json(asAdmin("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"" + login + "\"}"));
        assertThat(created.get("writes_need_approval").asBoolean(true)).isFalse();
        String id = created.get("id").asText();

        HttpResponse<String> patched = asAdmin("PATCH", "/api/subjects/" + id, "{\"writes_need_approval\":true}");

        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        assertThat(json(patched).get("writes_need_approval").isBoolean()).isTrue();
        assertThat(json(patched).get("writes_need_approval").asBoolean()).isTrue();
        JsonNode listed = null;
        for (JsonNode subject : json(asAdmin("GET", "/api/subjects", null))) {
            if (subject.get("login").asText().equals(login)) {
                listed = subject;
            }
        }
        assertThat(listed.get("writes_need_approval").asBoolean()).isTrue();
        JsonNode event = json(asAdmin("GET", "/api/control-events", null)).get("events").get(0);
        assertThat(event.get("type").asText()).isEqualTo("user.update");
        assertThat(event.get("target").get("login").asText()).isEqualTo(login);
        assertThat(event.get("actor").get("login").asText()).isEqualTo("root");
        assertThat(event.get("details").get("writes_need_approval").asText()).isEqualTo("true");

        HttpResponse<String> cleared = asAdmin("PATCH", "/api/subjects/" + id, "{\"writes_need_approval\":false}");
        assertThat(json(cleared).get("writes_need_approval").asBoolean(true)).isFalse();
        assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"writes_need_approval\":\"yes\"}"), 400,
                "cuerpo JSON no válido");
        assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"writes_need_approval\":null}"), 400,
                "cuerpo JSON no válido");
    }

    @Test
    void aPersonHasNoWritesNeedApproval() {
        String login = login("human");
        String id = createPerson(login, false);

        assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"writes_need_approval\":true}"), 400,
                "writes_need_approval es solo para bots: el agente de una persona lo elige en su sesión");
        assertError(asAdmin("PATCH", "/api/subjects/" + id, "{\"writes_need_approval\":false}"), 400,
                "writes_need_approval es solo para bots: el agente de una persona lo elige en su sesión");
        for (JsonNode subject : json(asAdmin("GET", "/api/subjects", null))) {
            if (subject.get("login").asText().equals(login)) {
                assertThat(subject.has("writes_need_approval")).isFalse();
            }
        }
        assertThat(json(asAdmin("PATCH", "/api/subjects/" + id, "{\"display_name\":\"Humana\"}"))
                .has("writes_need_approval")).isFalse();
    }

    @Test
    void subjectListShowsEveryone() {
        String login = login("listed");
        createPerson(login, true);

        JsonNode listed = null;
        for (JsonNode subject : json(asAdmin("GET", "/api/subjects", null))) {
            if (subject.get("login").asText().equals(login)) {
                listed = subject;
            }
        }

        assertThat(listed).isNotNull();
        assertThat(listed.get("is_admin").asBoolean()).isTrue();
        assertThat(listed.get("enabled").asBoolean()).isTrue();
        assertThat(listed.get("has_password").asBoolean()).isFalse();
        assertThat(listed.get("email").asText()).isEqualTo(login + "@example.com");
        assertThat(listed.has("password_hash")).isFalse();
    }

    @Test
    void signInMethodsArePasswordOnly() {
        assertThat(http.get("/api/auth/methods").body())
                .isEqualTo("{\"forge\":false,\"org\":\"\",\"oidc\":false,\"oidc_name\":\"\"}");
    }

    @Test
    void controlEventsListWhatHappenedNewestFirst() {
        String login = login("evt");
        signUpViaApi(login, false);
        TestingPeople.attempt(http, login, "wrong wrong wrong");
        TestingPeople.signIn(http, login, PASSWORD);
        asAdmin("POST", "/api/subjects/" + idOf(login) + "/disable", null);

        JsonNode page = json(asAdmin("GET", "/api/control-events", null));

        assertThat(page.get("page").asInt()).isEqualTo(1);
        assertThat(page.get("page_size").asInt()).isEqualTo(50);
        List<String> mine = new ArrayList<>();
        for (JsonNode event : page.get("events")) {
            if (event.get("target").isObject() && event.get("target").get("login").asText().equals(login)) {
                mine.add(event.get("type").asText() + "/" + event.get("reason").asText(""));
            }
        }
        assertThat(mine).containsExactly("user.disable/", "login.success/", "login.failure/wrong_password",
                "link.complete/invitation", "user.create/");
        JsonNode disable = page.get("events").get(0);
        assertThat(disable.get("actor").get("login").asText()).isEqualTo("root");
    }

    @Test
    void controlEventPagesAreChecked() {
        assertError(asAdmin("GET", "/api/control-events?page=0", null), 400, "page no válido: usa un número de 1 a 10000");
        assertError(asAdmin("GET", "/api/control-events?page=10001", null), 400,
                "page no válido: usa un número de 1 a 10000");
        assertError(asAdmin("GET", "/api/control-events?page=dos", null), 400, "page no válido: usa un número de 1 a 10000");
        JsonNode far = json(asAdmin("GET", "/api/control-events?page=10000", null));
        assertThat(far.get("events")).isEmpty();
        assertThat(far.get("has_more").asBoolean()).isFalse();
    }
}
