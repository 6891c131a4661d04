package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.access.Permission;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code POST /oauth/token} and {@code POST /oauth/revoke} as a public client uses them (spec 3 §4
 * "Agent login"; RFC 6749 §5, RFC 7009, RFC 8707), from a code a consent issued.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OAuthTokenEndpointTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final String REDIRECT = "http://127.0.0.1:33418/callback";
    private static final String CLIENT = "https://client.example/meta.json";
    /** The tests' base URL is the default one. */
    private static final String RESOURCE = "http://localhost:8080/mcp";

    private TestingKlave klave;
    private TestingHttp http;
    private SubjectId ana;

    @BeforeAll
    void start() throws Exception {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        String cookie = TestingPeople.signUp(klave, "ana", false);
        ana = new SubjectId(JSON.readTree(http.get("/api/me", "Cookie", cookie).body()).path("id").asText());
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private String code() {
        return klave.hooks().agentTokens().consent(ana, CLIENT, List.of(new Permission(
                new ClusterId("prod-1"), Tier.VIEW, Scope.ALL)), false, "password", REDIRECT, CHALLENGE).code();
    }

    private HttpResponse<String> post(String path, String... pairs) {
        StringBuilder form = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            form.append(form.isEmpty() ? "" : "&").append(pairs[i]).append('=')
                    .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        return http.send("POST", path, form.toString(), "Content-Type", "application/x-www-form-urlencoded");
    }

    private HttpResponse<String> exchange(String code) {
        return post("/oauth/token", "grant_type", "authorization_code", "code", code, "code_verifier", VERIFIER,
                "redirect_uri", REDIRECT, "client_id", CLIENT, "resource", RESOURCE);
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    @Test
    void aCodeBuysBearerTokensReadableCrossOriginAndNeverCached() throws Exception {
        HttpResponse<String> answer = exchange(code());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode tokens = json(answer);
        assertThat(tokens.path("access_token").asText()).startsWith("klt_");
        assertThat(tokens.path("refresh_token").asText()).startsWith("klr_");
        assertThat(tokens.path("token_type").asText()).isEqualTo("Bearer");
        assertThat(tokens.path("expires_in").asLong()).isEqualTo(3600);
        assertThat(answer.headers().firstValue("Access-Control-Allow-Origin")).contains("*");
        assertThat(answer.headers().firstValue("Cache-Control")).contains("no-store");
    }

    @Test
    void aCodeUsedTwiceIsInvalidGrantAndEndsTheSession() throws Exception {
        String code = code();
        String access = json(exchange(code)).path("access_token").asText();

        HttpResponse<String> again = exchange(code);

        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(json(again).path("error").asText()).isEqualTo("invalid_grant");
        assertThat(json(again).path("error_description").asText()).contains("ya se usó");
        assertThat(klave.hooks().agentTokens().sessionOf(access)).isEmpty();
    }

    @Test
    void aWrongResourceVerifierOrGrantTypeIsRefusedInTheOAuthShape() throws Exception {
        HttpResponse<String> target = post("/oauth/token", "grant_type", "authorization_code", "code", code(),
                "code_verifier", VERIFIER, "redirect_uri", REDIRECT, "client_id", CLIENT, "resource",
                "https://elsewhere.example/mcp");
        HttpResponse<String> verifier = post("/oauth/token", "grant_type", "authorization_code", "code", code(),
                "code_verifier", "z".repeat(43), "redirect_uri", REDIRECT, "client_id", CLIENT, "resource", RESOURCE);
        HttpResponse<String> grant = post("/oauth/token", "grant_type", "password", "client_id", CLIENT);
        HttpResponse<String> missing = post("/oauth/token", "client_id", CLIENT);
        HttpResponse<String> json = http.send("POST", "/oauth/token", "{}", "Content-Type", "application/json");

        assertThat(json(target).path("error").asText()).isEqualTo("invalid_target");
        assertThat(json(verifier).path("error").asText()).isEqualTo("invalid_grant");
        assertThat(json(grant).path("error").asText()).isEqualTo("unsupported_grant_type");
        assertThat(json(missing).path("error").asText()).isEqualTo("invalid_request");
        assertThat(json.statusCode()).isEqualTo(415);
    }

    @Test
    void aRefreshTokenRotatesAndReusingTheOldOneEndsTheSession() throws Exception {
        JsonNode first = json(exchange(code()));

        HttpResponse<String> rotated = post("/oauth/token", "grant_type", "refresh_token", "refresh_token",
                first.path("refresh_token").asText(), "client_id", CLIENT);
        HttpResponse<String> reused = post("/oauth/token", "grant_type", "refresh_token", "refresh_token",
                first.path("refresh_token").asText(), "client_id", CLIENT);

        assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
        assertThat(json(rotated).path("refresh_token").asText()).isNotEqualTo(first.path("refresh_token").asText());
        assertThat(json(reused).path("error").asText()).isEqualTo("invalid_grant");
        assertThat(klave.hooks().agentTokens().sessionOf(json(rotated).path("access_token").asText()))
                .isEmpty();
    }

    @Test
    void revokingATokenEndsTheSessionAndAnUnknownOneIsStill200() throws Exception {
        JsonNode tokens = json(exchange(code()));

        HttpResponse<String> unknown = post("/oauth/revoke", "token", "klr_nothing");
        HttpResponse<String> revoked = post("/oauth/revoke", "token", tokens.path("access_token").asText(),
                "token_type_hint", "access_token");

        assertThat(unknown.statusCode()).isEqualTo(200);
        assertThat(revoked.statusCode()).isEqualTo(200);
        assertThat(klave.hooks().agentTokens().sessionOf(tokens.path("access_token").asText())).isEmpty();
    }

    @Test
    void anAgentsAccessTokenIsRefusedAtTheProxy() throws Exception {
        String access = json(exchange(code())).path("access_token").asText();

        HttpResponse<String> proxied = http.get("/clusters/prod-1/api", "Authorization", "Bearer " + access);

        assertThat(proxied.statusCode()).isEqualTo(401);
    }
}
