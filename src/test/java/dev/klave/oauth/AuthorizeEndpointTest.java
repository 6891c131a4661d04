package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code GET /oauth/authorize} (spec 3 §4 "Agent login"): a proven client and redirect URI, PKCE
 * S256 and the resource send the browser to the consent page; anything else is a plain-text 400
 * that never redirects (rule 7).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthorizeEndpointTest {
    private static final String REDIRECT = "http://127.0.0.1:33418/callback";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    private TestingKlave klave;
    private TestingHttp http;
    private String clientId;

    @BeforeAll
    void start() throws Exception {
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_TRUSTED_PROXIES",
                "127.0.0.0/8"));
        http = klave.http();
        HttpResponse<String> registered = http.send("POST", "/oauth/register", "{\"redirect_uris\":[\"" + REDIRECT
                + "\"],\"client_name\":\"Agent\"}", "Content-Type", "application/json");
        clientId = new ObjectMapper().readTree(registered.body()).path("client_id").asText();
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private Map<String, String> good() {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", clientId);
        query.put("redirect_uri", REDIRECT);
        query.put("code_challenge", CHALLENGE);
        query.put("code_challenge_method", "S256");
        query.put("state", "xyz");
        query.put("resource", "http://localhost:8080/mcp");
        return query;
    }

    private HttpResponse<String> authorize(Map<String, String> query, String... headers) {
        StringJoiner text = new StringJoiner("&");
        query.forEach((name, value) -> text.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return http.get("/oauth/authorize?" + text, headers);
    }

    private void refused(Map<String, String> query, String text) {
        HttpResponse<String> answer = authorize(query);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
        assertThat(answer.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
        assertThat(answer.headers().firstValue("Location")).isEmpty();
        assertThat(answer.body()).contains(text);
    }

    @Test
    void aGoodRequestGoesToTheConsentPage() {
        HttpResponse<String> answer = authorize(good());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(302);
        assertThat(answer.headers().firstValue("Location").orElseThrow())
                .startsWith("http://localhost:8080/agents/authorize/");
    }

    @Test
    void theConsentPageItSendsTheBrowserToOpens() {
        String location = authorize(good()).headers().firstValue("Location").orElseThrow();

        HttpResponse<String> page = http.get(location.substring("http://localhost:8080".length()));

        assertThat(page.statusCode()).as("the web interface serves the page, not a 404 for a file name")
                .isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    }

    @Test
    void anUnknownClientOrAnUnregisteredRedirectIsAPlainTextRefusal() {
        Map<String, String> unknown = good();
        unknown.put("client_id", "oc_nobody");
        Map<String, String> elsewhere = good();
        elsewhere.put("redirect_uri", "https://evil.example/callback");
        Map<String, String> script = good();
        script.put("redirect_uri", "javascript:alert(1)");
        Map<String, String> otherPort = good();
        otherPort.put("redirect_uri", "http://127.0.0.1:9999/callback");

        refused(unknown, "cliente desconocido");
        refused(elsewhere, "redirect_uri no es una de las que el cliente declaró");
        refused(script, "redirect_uri no es una de las que el cliente declaró");
        assertThat(authorize(otherPort).statusCode()).as("RFC 8252 §7.3: a loopback port may change")
                .isEqualTo(302);
    }

    @Test
    void pkceIsS256OnlyAndRequired() {
        Map<String, String> plain = good();
        plain.put("code_challenge_method", "plain");
        Map<String, String> noMethod = good();
        noMethod.remove("code_challenge_method");
        Map<String, String> noChallenge = good();
        noChallenge.remove("code_challenge");

        refused(plain, "S256");
        refused(noMethod, "S256");
        refused(noChallenge, "S256");
    }

    @Test
    void theResponseTypeAndTheResourceAreChecked() {
        Map<String, String> token = good();
        token.put("response_type", "token");
        Map<String, String> resource = good();
        resource.put("resource", "https://elsewhere.example/mcp");

        refused(token, "response_type");
        refused(resource, "resource debe ser http://localhost:8080/mcp");
    }

    @Test
    void aMetadataDocumentOnAPrivateAddressIsRefusedWithoutFetching() {
        Map<String, String> document = good();
        document.put("client_id", "https://127.0.0.1:1/client.json");

        refused(document, "dirección pública");
    }

    @Test
    void pastThirtyAMinuteFromOneAddressItIs429() {
        HttpResponse<String> last = null;
        for (int i = 0; i < 31; i++) {
            last = authorize(good(), "X-Forwarded-For", "203.0.113.7");
        }

        assertThat(last.statusCode()).isEqualTo(429);
        assertThat(last.body()).contains("demasiadas autorizaciones");
    }
}
