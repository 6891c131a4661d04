package dev.klave.web;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.klave.web.AdminJourneyBrowserTest.button;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Page;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingLoopbackListener;
import dev.klave.testing.TestingPeople;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole agent login as a public client goes through it (issue 31 "Done when"), knowing only
 * Klave's {@code /mcp} address: the 401's challenge leads to the protected resource's metadata,
 * that to the authorization server's, whose registration endpoint registers the client; the
 * person, in Chromium, signs in from the consent page and approves; the code and its PKCE verifier
 * buy tokens; the tools answer as the person; the refresh token rotates; revocation ends it all.
 */
class AgentLoginFullFlowBrowserTest extends BrowserTestBase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    private TestingLoopbackListener loopback;
    private String redirect;

    @BeforeAll
    void aClusterAPersonWithAGrantAndTheAgentsListener() throws IOException {
        loopback = TestingLoopbackListener.start();
        redirect = loopback.redirect();
        TestingClusters.bootstrap(web.klave, admin, web.cluster, "prod-1");
        TestingPeople.signUp(web.klave, "nora", false);
        web.expect(201, "POST", "/api/grants", "{\"subject_id\":\"" + web.idOf(admin, "nora") + "\",\"cluster_id\":"
                + "\"prod-1\",\"tier\":\"view\",\"scope\":\"*\"}", admin);
        Eventually.until("nora's impersonation in the cluster", Duration.ofSeconds(10),
                () -> web.cluster.objects().get("clusterroles", null, "klave-impersonation")
                        .map(role -> role.toString().contains("user:nora")).orElse(false));
    }

    @AfterAll
    void stopTheListener() {
        if (loopback != null) {
            loopback.close();
        }
    }

    @Test
    void fromTheChallengeToRevocationAsAPublicClientDoesIt() throws Exception {
        // 1. The client knows only /mcp; its 401 names the protected resource's metadata (RFC 9728 §5.1).
        HttpResponse<String> challenged = mcp(null, "whoami");
        assertThat(challenged.statusCode()).isEqualTo(401);
        Matcher named = Pattern.compile("resource_metadata=\"([^\"]+)\"").matcher(challenged.headers()
                .firstValue("WWW-Authenticate").orElseThrow());
        assertThat(named.find()).isTrue();
        JsonNode resource = json(get(named.group(1)));
        assertThat(resource.path("resource").asText()).isEqualTo(web.baseUrl + "/mcp");
        String issuer = resource.path("authorization_servers").path(0).asText();
        JsonNode server = json(get(issuer + "/.well-known/oauth-authorization-server"));
        assertThat(server.path("issuer").asText()).isEqualTo(issuer);

        // 2. Dynamic registration (RFC 7591) as a public client.
        HttpResponse<String> registered = web.http.send("POST", path(server.path("registration_endpoint").asText()),
                "{\"redirect_uris\":[\"" + redirect + "\"],\"client_name\":\"Agente completo\","
                        + "\"token_endpoint_auth_method\":\"none\"}", "Content-Type", "application/json");
        assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
        String clientId = json(registered.body()).path("client_id").asText();

        // 3. The browser goes to the authorization endpoint; the person signs in and consents.
        Map<String, String> authorize = new LinkedHashMap<>();
        authorize.put("response_type", "code");
        authorize.put("client_id", clientId);
        authorize.put("redirect_uri", redirect);
        authorize.put("code_challenge", CHALLENGE);
        authorize.put("code_challenge_method", "S256");
        authorize.put("state", "completo");
        authorize.put("resource", resource.path("resource").asText());
        Page page = browser.open(web.baseUrl);
        page.navigate(server.path("authorization_endpoint").asText() + "?" + form(authorize));
        page.getByLabel("Usuario").fill("nora");
        page.getByLabel("Contraseña").fill(TestingPeople.PASSWORD);
        button(page, "Entrar").click();
        assertThat(page.getByTestId("consent-client-name")).hasText("Agente completo");
        page.getByLabel("view: ver (solo lectura), en todo el cluster de prod-1").check();
        page.getByLabel("Las escrituras esperan mi aprobación").uncheck();
        button(page, "Autorizar").click();
        Map<String, String> answer = query(loopback.first(Duration.ofSeconds(10)));
        assertThat(answer).containsEntry("state", "completo").containsEntry("iss", issuer).containsKey("code");

        // 4. The code, its verifier, the redirect_uri, the client and the resource buy the tokens.
        Map<String, String> exchange = new LinkedHashMap<>();
        exchange.put("grant_type", "authorization_code");
        exchange.put("code", answer.get("code"));
        exchange.put("code_verifier", VERIFIER);
        exchange.put("redirect_uri", redirect);
        exchange.put("client_id", clientId);
        exchange.put("resource", resource.path("resource").asText());
        JsonNode tokens = json(token(server, form(exchange)));
        String access = tokens.path("access_token").asText();
        assertThat(access).startsWith("klt_");
        assertThat(tokens.path("refresh_token").asText()).startsWith("klr_");

        // 5. The tools answer as nora, within what she gave.
        JsonNode whoami = json(mcp(access, "whoami").body()).path("result").path("structuredContent");
        assertThat(whoami.path("mode").asText()).isEqualTo("delegated");
        assertThat(whoami.path("acting_for").asText()).isEqualTo("nora");
        assertThat(whoami.path("writes_need_approval").asBoolean()).isFalse();
        HttpResponse<String> listed = mcp(access, "list_clusters");
        assertThat(json(listed.body()).path("result").path("structuredContent").path("clusters").toString())
                .contains("prod-1");

        // 6. The refresh token rotates; the new access token works in the same session.
        Map<String, String> refresh = new LinkedHashMap<>();
        refresh.put("grant_type", "refresh_token");
        refresh.put("refresh_token", tokens.path("refresh_token").asText());
        refresh.put("client_id", clientId);
        JsonNode refreshed = json(token(server, form(refresh)));
        assertThat(refreshed.path("refresh_token").asText()).isNotEqualTo(tokens.path("refresh_token").asText());
        String renewed = refreshed.path("access_token").asText();
        assertThat(json(mcp(renewed, "whoami").body()).path("result").path("structuredContent").path("session")
                .asText()).isEqualTo(whoami.path("session").asText());

        // 7. Revoking (RFC 7009) ends the session: no token of it works any more.
        HttpResponse<String> revoked = web.http.send("POST", "/oauth/revoke", "token=" + renewed, "Content-Type",
                "application/x-www-form-urlencoded");
        assertThat(revoked.statusCode()).isEqualTo(200);
        assertThat(mcp(renewed, "whoami").statusCode()).isEqualTo(401);
        assertThat(mcp(access, "whoami").statusCode()).isEqualTo(401);
        assertThat(web.http.send("POST", path(server.path("token_endpoint").asText()), form(refresh), "Content-Type",
                "application/x-www-form-urlencoded").statusCode()).isEqualTo(400);
    }

    private HttpResponse<String> mcp(String token, String tool) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":{}}}";
        return token == null
                ? web.http.send("POST", "/mcp", body, "Content-Type", "application/json", "Accept",
                        "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25")
                : web.http.send("POST", "/mcp", body, "Content-Type", "application/json", "Accept",
                        "application/json, text/event-stream", "MCP-Protocol-Version", "2025-11-25", "Authorization",
                        "Bearer " + token);
    }

    private String token(JsonNode server, String form) {
        HttpResponse<String> answer = web.http.send("POST", path(server.path("token_endpoint").asText()), form,
                "Content-Type", "application/x-www-form-urlencoded");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return answer.body();
    }

    private String get(String url) {
        HttpResponse<String> answer = web.http.get(path(url));
        assertThat(answer.statusCode()).as(url + ": " + answer.body()).isEqualTo(200);
        return answer.body();
    }

    /** An absolute address Klave gave, as the path the test's client sends (it must be Klave's own). */
    private String path(String url) {
        assertThat(url).startsWith(web.baseUrl + "/");
        return url.substring(web.baseUrl.length());
    }

    private static String form(Map<String, String> values) {
        StringBuilder text = new StringBuilder();
        values.forEach((name, value) -> text.append(text.isEmpty() ? "" : "&").append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return text.toString();
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            values.put(pair.substring(0, equals), URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return values;
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
