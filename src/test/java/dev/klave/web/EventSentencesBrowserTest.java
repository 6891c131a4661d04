package dev.klave.web;

import static dev.klave.web.AdminJourneyBrowserTest.signIn;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Page;
import dev.klave.account.Subject;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.testing.TestingOidcProvider;
import dev.klave.testing.TestingPeople;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every control-event type of spec 1 §6 and spec 2 §6, with every reason of a failed sign-in
 * (password reasons, the forge's codes of spec 1 §7, OIDC's of spec 2 §7) and of a refused CI
 * exchange, reads as a Spanish sentence on the events screen — the provider named as it is
 * configured (OIDC on here, as "Acme SSO") — never as a type or reason code.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EventSentencesBrowserTest {
    /** What no sentence may show: a type code, a snake_case reason, the fallbacks for unknown ones. */
    private static final Pattern RAW = Pattern.compile(
            "\\b(login|link|user|bot|oidc|forge|grant|credential|cluster|ci)\\.[a-z_.]+|\\b[a-z]+_[a-z_]+\\b"
                    + "|sin descripción|motivo no reconocido");

    private TestingOidcProvider provider;
    private WebKlave web;
    private TestingBrowser browser;
    private String admin;
    /** Each event recorded, with the sentence the screen must show for it. */
    private final Map<String, Consumer<ControlEvents>> recorded = new LinkedHashMap<>();

    @BeforeAll
    void start() {
        provider = TestingOidcProvider.start();
        Map<String, String> settings = new HashMap<>(provider.settings("example.com"));
        web = WebKlave.start(Optional.empty(), settings);
        browser = TestingBrowser.launch();
        admin = TestingPeople.signUp(web.klave, "root", true, true);
        TestingPeople.invite(web.klave, "ana", false);
        web.expect(201, "POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"despliegues\"}", admin);
        record();
    }

    @AfterAll
    void stop() {
        TestingBrowser.closeAll(browser, web, provider);
    }

    private Subject subject(String login) {
        return web.klave.accounts().list().stream()
                .filter(found -> found.login().value().equals(login)).findFirst().orElseThrow();
    }

    private void expect(String sentence, Consumer<ControlEvents> event) {
        recorded.put(sentence, event);
    }

    /** The whole list: each line one event and what it must read. */
    private void record() {
        Subject root = subject("root");
        Subject ana = subject("ana");
        Subject bot = subject("despliegues");
        expect("ana entró con contraseña", e -> e.event(EventType.LOGIN_SUCCESS).target(ana).via(Via.PASSWORD).record());
        expect("ana entró con Acme SSO", e -> e.event(EventType.LOGIN_SUCCESS).target(ana).via(Via.OIDC).record());
        expect("ana entró con Forge", e -> e.event(EventType.LOGIN_SUCCESS).target(ana).via(Via.FORGE).record());
        Map<String, String> passwordReasons = Map.of(
                "unknown_login", "no hay ninguna cuenta con ese usuario",
                "wrong_password", "contraseña incorrecta",
                "wrong_password_locked", "contraseña incorrecta, y la cuenta queda bloqueada 15 minutos",
                "locked", "la cuenta estaba bloqueada por demasiados fallos",
                "password_disabled", "la contraseña está desactivada para esta cuenta: entra con Acme SSO",
                "no_password", "la cuenta no tiene contraseña todavía",
                "disabled", "la cuenta está deshabilitada",
                "rate_limited", "demasiados intentos desde la misma dirección");
        passwordReasons.forEach((reason, text) -> expect("Entrada fallida de ana con contraseña: " + text,
                e -> e.event(EventType.LOGIN_FAILURE).target(ana).via(Via.PASSWORD).reason(reason).record()));
        expect("Entrada fallida como «nadie» con contraseña: no hay ninguna cuenta con ese usuario",
                e -> e.event(EventType.LOGIN_FAILURE).via(Via.PASSWORD).reason("unknown_login")
                        .details(Map.of("login", "nadie")).record());
        Map<String, String> forgeCodes = new LinkedHashMap<>();
        forgeCodes.put("state", "la sesión de inicio había caducado o no era válida");
        forgeCodes.put("denied", "la persona canceló el acceso en Forge o Forge la rechazó");
        forgeCodes.put("forge", "Forge no respondió como se esperaba");
        forgeCodes.put("not_member", "no es miembro activo de la organización");
        forgeCodes.put("no_2fa", "la organización no exige doble factor");
        forgeCodes.put("unknown_account", "esa cuenta de Forge no corresponde a ninguna cuenta de Klave");
        forgeCodes.put("disabled", "la cuenta está deshabilitada");
        forgeCodes.put("link_gone", "el enlace había caducado o ya se había usado");
        forgeCodes.put("forge_taken", "esa cuenta de Forge ya está vinculada a otra cuenta");
        forgeCodes.put("already_linked", "la cuenta ya tenía otra identidad de Forge");
        forgeCodes.put("rate_limited", "demasiados intentos desde la misma dirección");
        forgeCodes.put("server", "error interno");
        forgeCodes.forEach((code, text) -> expect("Entrada fallida de ana con Forge: " + text,
                e -> e.event(EventType.LOGIN_FAILURE).target(ana).via(Via.FORGE).reason(code).record()));
        Map<String, String> oidcCodes = new LinkedHashMap<>();
        oidcCodes.put("rate_limited", "demasiados intentos desde la misma dirección");
        oidcCodes.put("state", "la sesión de inicio había caducado o no era válida");
        oidcCodes.put("denied", "la persona canceló el acceso en Acme SSO o Acme SSO la rechazó");
        oidcCodes.put("oidc", "Acme SSO no respondió como se esperaba");
        oidcCodes.put("provider_unavailable", "no se pudo contactar con Acme SSO");
        oidcCodes.put("token", "no se pudo verificar la respuesta de Acme SSO");
        oidcCodes.put("no_email", "Acme SSO no compartió el correo");
        oidcCodes.put("email_unverified", "Acme SSO no garantiza el correo");
        oidcCodes.put("domain_not_allowed", "el correo no es de un dominio aceptado");
        oidcCodes.put("unknown_account", "esa cuenta de Acme SSO no corresponde a ninguna cuenta de Klave");
        oidcCodes.put("disabled", "la cuenta está deshabilitada");
        oidcCodes.put("identity_mismatch", "la cuenta ya está vinculada a otra identidad de Acme SSO");
        oidcCodes.put("oidc_taken", "esa identidad de Acme SSO ya abre otra cuenta");
        oidcCodes.put("already_linked", "la cuenta ya tenía otra identidad de Acme SSO");
        oidcCodes.put("link_gone", "el enlace había caducado o ya se había usado");
        oidcCodes.put("server", "error interno");
        oidcCodes.forEach((code, text) -> expect("Entrada fallida de ana (ana@example.com) con Acme SSO: " + text,
                e -> e.event(EventType.LOGIN_FAILURE).target(ana).via(Via.OIDC).reason(code)
                        .details(Map.of("email", "ana@example.com", "subject", "s-1")).record()));
        expect("Entrada fallida de quien@example.com con Acme SSO: esa cuenta de Acme SSO no corresponde a ninguna "
                + "cuenta de Klave", e -> e.event(EventType.LOGIN_FAILURE).via(Via.OIDC).reason("unknown_account")
                        .details(Map.of("email", "quien@example.com")).record());
        expect("Entrada fallida de ana (ana@example.com) con Acme SSO: varias cuentas tienen ese correo; cuentas con "
                + "ese correo: ana, ana2", e -> e.event(EventType.LOGIN_FAILURE).target(ana).via(Via.OIDC)
                        .reason("ambiguous_account").details(Map.of("email", "ana@example.com",
                                "candidates", List.of("ana", "ana2"))).record());
        expect("ana activó su invitación y entró con contraseña",
                e -> e.event(EventType.LINK_COMPLETE).target(ana).via(Via.PASSWORD).reason("invitation").record());
        expect("ana activó un enlace nuevo y entró con contraseña",
                e -> e.event(EventType.LINK_COMPLETE).target(ana).via(Via.PASSWORD).reason("reset").record());
        expect("ana activó su invitación y entró con Acme SSO (el correo de Acme SSO no es el de la cuenta)",
                e -> e.event(EventType.LINK_COMPLETE).target(ana).via(Via.OIDC).reason("invitation")
                        .details(Map.of("email_mismatch", true)).record());
        expect("ana vinculó su cuenta con Forge desde su página de cuenta",
                e -> e.event(EventType.LINK_COMPLETE).actor(ana).target(ana).via(Via.FORGE).reason("account_page").record());
        expect("root dio de alta a ana", e -> e.event(EventType.USER_CREATE).actor(root).target(ana).via(Via.API).record());
        expect("ana fue dado de alta desde la línea de órdenes",
                e -> e.event(EventType.USER_CREATE).target(ana).via(Via.CLI).record());
        expect("root creó el bot despliegues", e -> e.event(EventType.BOT_CREATE).actor(root).target(bot).record());
        expect("root cambió los datos de ana (es administrador)",
                e -> e.event(EventType.USER_UPDATE).actor(root).target(ana).details(Map.of("is_admin", "true")).record());
        expect("root generó un enlace nuevo para ana", e -> e.event(EventType.USER_RESET_LINK).actor(root).target(ana).record());
        expect("ana quedó marcada como cuenta de emergencia desde la línea de órdenes",
                e -> e.event(EventType.USER_BREAK_GLASS).target(ana).via(Via.CLI).record());
        expect("ana dejó de ser cuenta de emergencia desde la línea de órdenes",
                e -> e.event(EventType.USER_BREAK_GLASS_REMOVED).target(ana).via(Via.CLI).record());
        expect("root deshabilitó a ana", e -> e.event(EventType.USER_DISABLE).actor(root).target(ana).record());
        expect("La sincronización con Forge deshabilitó a ana",
                e -> e.event(EventType.USER_DISABLE).target(ana).via(Via.FORGE_SYNC).record());
        expect("El aviso (webhook) de Forge deshabilitó a ana",
                e -> e.event(EventType.USER_DISABLE).target(ana).via(Via.FORGE_WEBHOOK).record());
        expect("root habilitó a ana", e -> e.event(EventType.USER_ENABLE).actor(root).target(ana).record());
        expect("root cerró las sesiones de ana", e -> e.event(EventType.USER_LOGOUT).actor(root).target(ana).record());
        expect("ana cerró todas sus sesiones", e -> e.event(EventType.USER_LOGOUT).actor(ana).target(ana).record());
        expect("ana cambió su contraseña", e -> e.event(EventType.USER_PASSWORD_CHANGE).actor(ana).target(ana).record());
        expect("root desvinculó a ana de Forge", e -> e.event(EventType.USER_FORGE_UNLINK).actor(root).target(ana).record());
        expect("root desvinculó a ana de Acme SSO", e -> e.event(EventType.USER_OIDC_UNLINK).actor(root).target(ana).record());
        expect("ana quedó vinculada con Acme SSO por su correo (enlaces pendientes anulados: 1)",
                e -> e.event(EventType.OIDC_LINK).target(ana).via(Via.EMAIL).details(Map.of("invites_revoked", 1)).record());
        expect("El correo de ana en Acme SSO cambió de ana@example.com a ana@example.org",
                e -> e.event(EventType.OIDC_EMAIL_CHANGED).target(ana).via(Via.OIDC)
                        .details(Map.of("from", "ana@example.com", "to", "ana@example.org")).record());
        expect("root concedió a ana el permiso «editar» en prod-1, namespace team-a",
                e -> e.event(EventType.GRANT_CREATE).actor(root).target(ana)
                        .details(Map.of("cluster", "prod-1", "tier", "edit", "scope", "team-a")).record());
        expect("root retiró a ana el permiso «ver» en prod-1 (todo el cluster)",
                e -> e.event(EventType.GRANT_REVOKE).actor(root).target(ana)
                        .details(Map.of("cluster", "prod-1", "tier", "view", "scope", "*")).record());
        expect("ana emitió una credencial para sí", e -> e.event(EventType.CREDENTIAL_ISSUE).actor(ana).target(ana).record());
        expect("root emitió una credencial para despliegues",
                e -> e.event(EventType.CREDENTIAL_ISSUE).actor(root).target(bot).record());
        expect("ana revocó una de sus credenciales: «portátil perdido»", e -> e.event(EventType.CREDENTIAL_REVOKE).actor(ana)
                .target(ana).details(Map.of("reason", "portátil perdido")).record());
        expect("root revocó una credencial de ana", e -> e.event(EventType.CREDENTIAL_REVOKE).actor(root).target(ana)
                .details(Map.of("reason", "")).record());
        expect("ana terminó la sesión de uno de sus agentes", e -> e.event(EventType.AGENT_SESSION_END).actor(ana)
                .target(ana).details(Map.of("session", "s_1234567890", "client", "c-1")).record());
        expect("root terminó la sesión de un agente de ana", e -> e.event(EventType.AGENT_SESSION_END).actor(root)
                .target(ana).details(Map.of("session", "s_1234567890", "client", "c-1")).record());
        // Issue 40 items 8 and 9: whose agent asked, in Spanish verbs; authorizing and denying an agent.
        expect("root aprobó la escritura del bot despliegues: escalar deployments/web en team-a (prod-1)",
                e -> e.event(EventType.AGENT_WRITE_APPROVED).actor(root).target(bot).details(Map.of("cluster", "prod-1",
                        "namespace", "team-a", "verb", "scale", "resource", "deployments", "name", "web",
                        "requester", "bot")).record());
        expect("ana denegó la escritura de uno de sus agentes: borrar configmaps/ajustes en team-a (prod-1)",
                e -> e.event(EventType.AGENT_WRITE_DENIED).actor(ana).target(ana).details(Map.of("cluster", "prod-1",
                        "namespace", "team-a", "verb", "delete", "resource", "configmaps", "name", "ajustes",
                        "requester", "person")).record());
        expect("root aprobó la solicitud de acceso del bot despliegues: «editar» en prod-1, namespace team-a durante"
                + " 30 minutos", e -> e.event(EventType.AGENT_ACCESS_APPROVED).actor(root).target(bot)
                        .details(Map.of("cluster", "prod-1", "tier", "edit", "scope", "team-a", "minutes", 30,
                                "requester", "bot")).record());
        expect("ana autorizó a «Claude Code» a actuar en su nombre, con «ver» en el namespace team-a de prod-1; sus"
                + " escrituras esperan su aprobación", e -> e.event(EventType.AGENT_SESSION_START).actor(ana).target(ana)
                        .details(Map.of("client", "https://claude.ai/oauth/mcp", "client_name", "Claude Code",
                                "session", "s_1", "permissions", java.util.List.of("prod-1/view/team-a"),
                                "writes_need_approval", true)).record());
        expect("ana denegó el acceso a «Claude Code»", e -> e.event(EventType.AGENT_SESSION_DENIED).actor(ana)
                .target(ana).details(Map.of("client", "https://claude.ai/oauth/mcp", "client_name", "Claude Code"))
                .record());
        expect("root purgó 12 clientes OAuth que nunca iniciaron sesión", e -> e.event(EventType.OAUTH_CLIENTS_PURGE)
                .actor(root).details(Map.of("deleted", 12)).record());
        expect("root registró el cluster prod-9",
                e -> e.event(EventType.CLUSTER_CREATE).actor(root).details(Map.of("cluster", "prod-9")).record());
        expect("root guardó los tokens del cluster prod-9",
                e -> e.event(EventType.CLUSTER_TOKENS).actor(root).details(Map.of("cluster", "prod-9")).record());
        expect("root borró el cluster prod-9",
                e -> e.event(EventType.CLUSTER_DELETE).actor(root).details(Map.of("cluster", "prod-9")).record());
        expect("root creó la trust rule «deploy» para despliegues", e -> e.event(EventType.CI_TRUST_RULE_CREATE).actor(root)
                .target(bot).details(Map.of("name", "deploy")).record());
        expect("root borró la trust rule «deploy»",
                e -> e.event(EventType.CI_TRUST_RULE_DELETE).actor(root).details(Map.of("name", "deploy")).record());
        expect("Intercambio de CI rechazado: ese token ya se había canjeado (cada ejecución de un job solo puede "
                + "canjearlo una vez)", e -> e.event(EventType.CI_EXCHANGE_FAILURE).reason("jti abc was already exchanged")
                        .record());
        expect("Intercambio de CI rechazado: el token había caducado",
                e -> e.event(EventType.CI_EXCHANGE_FAILURE).reason("Expired JWT").record());
        expect("Intercambio de CI rechazado: el bot despliegues de la trust rule «deploy» está deshabilitado",
                e -> e.event(EventType.CI_EXCHANGE_FAILURE)
                        .reason("el bot despliegues de la trust rule «deploy» está deshabilitado").record());
        // Issue 41: people's access requests, eligible grants and access policies.
        Map<String, Object> asked = Map.of("request", "ar_1", "cluster", "prod-9", "tier", "admin", "scope", "*",
                "minutes", 90, "requester", "person");
        expect("ana pidió «administrar» en prod-9 (todo el cluster) durante 90 minutos",
                e -> e.event(EventType.ACCESS_REQUEST_CREATE).actor(ana).target(ana).details(asked).record());
        expect("root dio la primera de dos aprobaciones a ana: «administrar» en prod-9 (todo el cluster): «por mí, sí»",
                e -> e.event(EventType.ACCESS_REQUEST_FIRST_APPROVAL).actor(root).target(ana).details(asked)
                        .detail("comment", "por mí, sí").record());
        expect("root aprobó a ana «administrar» en prod-9 (todo el cluster) durante 90 minutos",
                e -> e.event(EventType.ACCESS_REQUEST_APPROVE).actor(root).target(ana).details(asked).record());
        expect("ana activó «administrar» en prod-9 (todo el cluster) durante 90 minutos",
                e -> e.event(EventType.ACCESS_REQUEST_APPROVE).actor(ana).target(ana).details(asked)
                        .detail("automatic", true).record());
        expect("root denegó a ana «administrar» en prod-9 (todo el cluster): «hoy no»",
                e -> e.event(EventType.ACCESS_REQUEST_DENY).actor(root).target(ana).details(asked)
                        .detail("comment", "hoy no").record());
        expect("ana retiró su solicitud de «administrar» en prod-9 (todo el cluster)",
                e -> e.event(EventType.ACCESS_REQUEST_CANCEL).actor(ana).target(ana).details(asked).record());
        expect("La solicitud de ana de «administrar» en prod-9 (todo el cluster) caducó sin respuesta",
                e -> e.event(EventType.ACCESS_REQUEST_EXPIRE).target(ana).details(asked).record());
        expect("ana terminó antes de tiempo su acceso a «administrar» en prod-9 (todo el cluster)",
                e -> e.event(EventType.ACCESS_REQUEST_END).actor(ana).target(ana).details(asked)
                        .detail("early", true).record());
        expect("El acceso de ana a «administrar» en prod-9 (todo el cluster) terminó a su hora",
                e -> e.event(EventType.ACCESS_REQUEST_END).target(ana).details(asked).detail("early", false)
                        .detail("revoked", false).record());
        expect("El acceso de ana a «administrar» en prod-9 (todo el cluster) terminó: se retiró su permiso",
                e -> e.event(EventType.ACCESS_REQUEST_END).target(ana).details(asked).detail("early", true)
                        .detail("revoked", true).record());
        expect("root hizo a ana elegible para «editar» en prod-9, namespace team-a, hasta 2 horas con aprobación",
                e -> e.event(EventType.ELIGIBLE_GRANT_CREATE).actor(root).target(ana).details(Map.of("eligible", "e1",
                        "cluster", "prod-9", "tier", "edit", "scope", "team-a", "max_minutes", 120,
                        "needs_approval", true)).record());
        expect("root retiró a ana el permiso elegible «editar» en prod-9, namespace team-a",
                e -> e.event(EventType.ELIGIBLE_GRANT_REVOKE).actor(root).target(ana).details(Map.of("eligible", "e1",
                        "cluster", "prod-9", "tier", "edit", "scope", "team-a")).record());
        expect("root cambió cómo se pide acceso a prod-9: hasta 8 horas, dos aprobaciones para lo amplio; deciden "
                + "también ana", e -> e.event(EventType.ACCESS_POLICY_UPDATE).actor(root).details(Map.of("cluster",
                        "prod-9", "max_minutes", 480, "two_approvals", true, "deciders", "ana")).record());
        expect("root añadió el destino de avisos «guardia» (Slack, https://hooks.slack.com/…)",
                e -> e.event(EventType.NOTIFY_DESTINATION_CREATE).actor(root).details(Map.of("destination", "d1",
                        "name", "guardia", "format", "slack", "address", "https://hooks.slack.com/…")).record());
        expect("root quitó el destino de avisos «guardia»", e -> e.event(EventType.NOTIFY_DESTINATION_DELETE)
                .actor(root).details(Map.of("destination", "d1", "name", "guardia")).record());
        expect("root vio la grabación de la sesión de ana en web-0 (prod-9)", e -> e.event(EventType.RECORDING_VIEW)
                .actor(root).details(Map.of("recording", "r1", "cluster", "prod-9", "pod", "web-0", "subject", "ana"))
                .record());
        expect("root puso la grabación de sesiones de prod-9 en «grabar siempre (obligatoria)»",
                e -> e.event(EventType.RECORDING_POLICY_UPDATE).actor(root).details(Map.of("cluster", "prod-9",
                        "policy", "required")).record());
        ControlEvents events = web.klave.events();
        recorded.values().forEach(event -> event.accept(events));
    }

    /** Every sentence of every page of the events screen. */
    private List<String> sentences(Page page) {
        List<String> all = new ArrayList<>();
        for (int number = 1; number < 20; number++) {
            page.navigate("/admin/auditoria?vista=eventos" + (number > 1 ? "&page=" + number : ""));
            page.getByTestId("control-events").waitFor();
            all.addAll(page.locator("[data-testid=control-event] .event-sentence").allTextContents());
            if (page.getByRole(com.microsoft.playwright.options.AriaRole.BUTTON,
                    new Page.GetByRoleOptions().setName("Siguiente →")).isDisabled()) {
                return all;
            }
        }
        throw new AssertionError("more than 19 pages of events");
    }

    @Test
    void everyEventTypeAndReasonReadsAsASpanishSentence() {
        Page page = browser.open(web.baseUrl);
        signIn(page, "root");

        List<String> shown = sentences(page);

        assertThat(shown).containsAll(recorded.keySet());
        assertThat(shown).allSatisfy(sentence -> assertThat(RAW.matcher(sentence).find())
                .as("a code or fallback in «%s»", sentence).isFalse());
        assertThat(shown).noneMatch(sentence -> sentence.contains("OIDC"));
        TestingBrowser.screenshot(page, "eventos-frases");
    }
}
