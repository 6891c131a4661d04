package dev.klave.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A delegated agent's login as a public client goes through it (spec 3 §4 "Agent login"):
 * registration, {@code /oauth/authorize}, the person's consent through the consent page's API,
 * and the code exchanged with its PKCE verifier at {@code /oauth/token}.
 */
public final class TestingAgentLogin {
    /** RFC 7636 appendix B's pair. */
    public static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    public static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    public static final String REDIRECT = "http://127.0.0.1:33418/callback";
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestingAgentLogin() {}

    /** What the client holds after the login. */
    public record Tokens(String clientId, String accessToken, String refreshToken) {
        @Override
        public String toString() {
            return "Tokens[" + clientId + "]";
        }
    }

    /**
     * Logs an agent in for the person whose session cookie is {@code person}, who gives it
     * {@code permissions} (JSON array of {@code {cluster, role, scope}}).
     */
    public static Tokens login(TestingKlave klave, String person, String permissions, boolean writesNeedApproval) {
        TestingHttp http = klave.http();
        String clientId = read(expect(201, http.send("POST", "/oauth/register", "{\"redirect_uris\":[\"" + REDIRECT
                + "\"],\"client_name\":\"Test agent\"}", "Content-Type", "application/json"))).path("client_id")
                .asText();
        // The tests' base URL (TestingSettings).
        String resource = "http://localhost:8080/mcp";
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", clientId);
        query.put("redirect_uri", REDIRECT);
        query.put("code_challenge", CHALLENGE);
        query.put("code_challenge_method", "S256");
        query.put("state", "s1");
        query.put("resource", resource);
        String location = expect(302, http.get("/oauth/authorize?" + form(query))).headers().firstValue("Location")
                .orElseThrow();
        String id = location.substring(location.lastIndexOf('/') + 1);
        String redirect = read(expect(200, http.send("POST", "/api/agents/authorize/" + id, "{\"approve\":true,"
                + "\"permissions\":" + permissions + ",\"writes_need_approval\":" + writesNeedApproval + "}",
                "Cookie", person))).path("redirect").asText();
        String code = null;
        for (String pair : URI.create(redirect).getRawQuery().split("&")) {
            if (pair.startsWith("code=")) {
                code = URLDecoder.decode(pair.substring(5), StandardCharsets.UTF_8);
            }
        }
        Map<String, String> exchange = new LinkedHashMap<>();
        exchange.put("grant_type", "authorization_code");
        exchange.put("code", code);
        exchange.put("code_verifier", VERIFIER);
        exchange.put("redirect_uri", REDIRECT);
        exchange.put("client_id", clientId);
        exchange.put("resource", resource);
        JsonNode tokens = read(expect(200, http.send("POST", "/oauth/token", form(exchange), "Content-Type",
                "application/x-www-form-urlencoded")));
        return new Tokens(clientId, tokens.path("access_token").asText(), tokens.path("refresh_token").asText());
    }

    /** {@code grant_type=refresh_token}: the answer as the client gets it. */
    public static HttpResponse<String> refresh(TestingKlave klave, Tokens tokens) {
        return klave.http().send("POST", "/oauth/token", "grant_type=refresh_token&refresh_token="
                + tokens.refreshToken() + "&client_id=" + URLEncoder.encode(tokens.clientId(), StandardCharsets.UTF_8),
                "Content-Type", "application/x-www-form-urlencoded");
    }

    public static String form(Map<String, String> values) {
        StringBuilder text = new StringBuilder();
        values.forEach((name, value) -> text.append(text.isEmpty() ? "" : "&").append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return text.toString();
    }

    private static HttpResponse<String> expect(int status, HttpResponse<String> response) {
        if (response.statusCode() != status) {
            throw new AssertionError("expected " + status + ": " + response.statusCode() + " " + response.body());
        }
        return response;
    }

    private static JsonNode read(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
