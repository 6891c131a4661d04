package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The consent page's API (spec 3 §4 "Agent login" 3, §5 4): the person sees the client, where the
 * answer goes and what they may give; approving with permissions of their own ends in a redirect
 * carrying code, state and iss that the token endpoint honours; denying carries access_denied;
 * anything beyond their own permissions, or cluster-admin, is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsentRoutesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REDIRECT = "http://127.0.0.1:33418/callback";
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private String ana;
    private String clientId;

    @BeforeAll
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        ana = TestingPeople.signUp(klave, "ana", false);
        String anaId = JSON.readTree(http.get("/api/me", "Cookie", ana).body()).path("id").asText();
        assertThat(http.send("POST", "/api/grants", "{\"subject_id\":\"" + anaId + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin).statusCode()).isEqualTo(201);
        clientId = JSON.readTree(http.send("POST", "/oauth/register", "{\"redirect_uris\":[\"" + REDIRECT
                + "\"],\"client_name\":\"Claude Code\"}", "Content-Type", "application/json").body())
                .path("client_id").asText();
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    /** The consent page's id, from the authorization endpoint's redirect. */
    private String authorize() {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", clientId);
        query.put("redirect_uri", REDIRECT);
        query.put("code_challenge", CHALLENGE);
        query.put("code_challenge_method", "S256");
        query.put("state", "st 1");
        query.put("resource", "http://localhost:8080/mcp");
        StringBuilder text = new StringBuilder();
        query.forEach((name, value) -> text.append(text.isEmpty() ? "" : "&").append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        String location = http.get("/oauth/authorize?" + text).headers().firstValue("Location").orElseThrow();
        return URLDecoder.decode(location.substring(location.lastIndexOf('/') + 1), StandardCharsets.UTF_8);
    }

    private HttpResponse<String> decide(String id, String body) {
        return http.send("POST", "/api/agents/authorize/" + URLEncoder.encode(id, StandardCharsets.UTF_8), body,
                "Cookie", ana);
    }

    private static Map<String, String> query(String url) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : URI.create(url).getRawQuery().split("&")) {
            int equals = pair.indexOf('=');
            values.put(pair.substring(0, equals), URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
        }
        return values;
    }

    @Test
    void thePersonSeesTheClientWhereTheAnswerGoesAndWhatTheyMayGive() throws Exception {
        HttpResponse<String> page = http.get("/api/agents/authorize/" + URLEncoder.encode(authorize(),
                StandardCharsets.UTF_8), "Cookie", ana);

        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        JsonNode view = JSON.readTree(page.body());
        assertThat(view.path("client").path("name").asText()).isEqualTo("Claude Code");
        assertThat(view.path("redirect_uri").asText()).isEqualTo(REDIRECT);
        assertThat(view.path("redirect_is_loopback").asBoolean()).isTrue();
        assertThat(view.path("permissions").toString()).contains("\"cluster\":\"prod-1\"", "\"role\":\"view\"",
                "\"scope\":\"*\"");
    }

    @Test
    void approvingRedirectsWithACodeTheTokenEndpointHonours() throws Exception {
        HttpResponse<String> approved = decide(authorize(), "{\"approve\":true,\"permissions\":[{\"cluster\":"
                + "\"prod-1\",\"role\":\"view\",\"scope\":\"*\"}],\"writes_need_approval\":true}");

        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        String redirect = JSON.readTree(approved.body()).path("redirect").asText();
        assertThat(redirect).startsWith(REDIRECT + "?code=");
        Map<String, String> answer = query(redirect);
        assertThat(answer).containsEntry("state", "st 1").containsEntry("iss", "http://localhost:8080");
        HttpResponse<String> token = http.send("POST", "/oauth/token", "grant_type=authorization_code&code="
                + URLEncoder.encode(answer.get("code"), StandardCharsets.UTF_8) + "&code_verifier=" + VERIFIER
                + "&redirect_uri=" + URLEncoder.encode(REDIRECT, StandardCharsets.UTF_8) + "&client_id=" + clientId
                + "&resource=" + URLEncoder.encode("http://localhost:8080/mcp", StandardCharsets.UTF_8),
                "Content-Type", "application/x-www-form-urlencoded");
        assertThat(token.statusCode()).as(token.body()).isEqualTo(200);
    }

    /** The agent-safety review: one authorization request made two codes and two 30-day sessions. */
    @Test
    void aConsentIsAnsweredOnceThenSaysSo() throws Exception {
        String id = authorize();
        String approve = "{\"approve\":true,\"permissions\":[{\"cluster\":\"prod-1\",\"role\":\"view\","
                + "\"scope\":\"*\"}]}";

        assertThat(decide(id, approve).statusCode()).isEqualTo(200);
        HttpResponse<String> again = decide(id, approve);
        HttpResponse<String> denied = decide(id, "{\"approve\":false}");
        HttpResponse<String> page = http.get("/api/agents/authorize/" + URLEncoder.encode(id, StandardCharsets.UTF_8),
                "Cookie", ana);

        for (HttpResponse<String> answer : List.of(again, denied, page)) {
            assertThat(answer.statusCode()).isEqualTo(409);
            assertThat(JSON.readTree(answer.body()).path("error").asText()).isEqualTo("Esta solicitud ya se respondió");
        }
        assertThat(authorize()).as("a request alike is another request").isNotEqualTo(id);
    }

    /**
     * Issue 40 items 5 and 9: the page says until when the agent keeps access; authorizing and
     * denying an agent are control events naming the client, the permissions and whether writes wait.
     */
    @Test
    void thePageSaysHowLongAccessLastsAndEachAnswerIsAnEvent() throws Exception {
        JsonNode view = JSON.readTree(http.get("/api/agents/authorize/" + URLEncoder.encode(authorize(),
                StandardCharsets.UTF_8), "Cookie", ana).body());
        assertThat(view.path("access_days").asInt()).isEqualTo(30);
        assertThat(java.time.Instant.parse(view.path("access_until").asText()))
                .isEqualTo(java.time.Instant.parse("2026-11-25T10:00:00Z").plus(java.time.Duration.ofDays(30)));

        assertThat(decide(authorize(), "{\"approve\":true,\"permissions\":[{\"cluster\":\"prod-1\",\"role\":"
                + "\"view\",\"scope\":\"*\"}],\"writes_need_approval\":false}").statusCode()).isEqualTo(200);
        assertThat(decide(authorize(), "{\"approve\":false}").statusCode()).isEqualTo(200);

        String admin = TestingPeople.signIn(http, "root", TestingPeople.PASSWORD);
        JsonNode started = JSON.readTree(http.get("/api/control-events?type=agent.session_start", "Cookie", admin)
                .body()).path("events").get(0);
        assertThat(started.path("actor").path("login").asText()).isEqualTo("ana");
        assertThat(started.path("details").path("client").asText()).isEqualTo(clientId);
        assertThat(started.path("details").path("client_name").asText()).isEqualTo("Claude Code");
        assertThat(started.path("details").path("permissions").toString()).isEqualTo("[\"prod-1/view/*\"]");
        assertThat(started.path("details").path("writes_need_approval").asBoolean(true)).isFalse();
        assertThat(started.path("details").path("session").asText()).startsWith("s_");
        JsonNode denied = JSON.readTree(http.get("/api/control-events?type=agent.session_denied", "Cookie", admin)
                .body()).path("events").get(0);
        assertThat(denied.path("target").path("login").asText()).isEqualTo("ana");
        assertThat(denied.path("details").path("client_name").asText()).isEqualTo("Claude Code");
    }

    @Test
    void denyingRedirectsWithAccessDeniedTheStateAndTheIssuer() throws Exception {
        HttpResponse<String> denied = decide(authorize(), "{\"approve\":false}");

        Map<String, String> answer = query(JSON.readTree(denied.body()).path("redirect").asText());
        assertThat(answer).containsEntry("error", "access_denied").containsEntry("state", "st 1")
                .containsEntry("iss", "http://localhost:8080").doesNotContainKey("code");
    }

    @Test
    void nothingBeyondThePersonsOwnAndNeverClusterAdmin() {
        HttpResponse<String> edit = decide(authorize(), "{\"approve\":true,\"permissions\":[{\"cluster\":\"prod-1\","
                + "\"role\":\"edit\",\"scope\":\"team-a\"}]}");
        HttpResponse<String> clusterAdmin = decide(authorize(), "{\"approve\":true,\"permissions\":[{\"cluster\":"
                + "\"prod-1\",\"role\":\"cluster-admin\",\"scope\":\"*\"}]}");
        HttpResponse<String> none = decide(authorize(), "{\"approve\":true,\"permissions\":[]}");
        // Only what a grant carries: the cluster binds the group of ana's view on *, not of a view on team-a.
        HttpResponse<String> narrower = decide(authorize(), "{\"approve\":true,\"permissions\":[{\"cluster\":"
                + "\"prod-1\",\"role\":\"view\",\"scope\":\"team-a\"}]}");

        assertThat(edit.statusCode()).isEqualTo(403);
        assertThat(edit.body()).contains("no puedes dar a un agente un permiso que no tienes");
        assertThat(clusterAdmin.statusCode()).isEqualTo(403);
        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(narrower.statusCode()).isEqualTo(403);
    }

    @Test
    void aForgedIdIs404AndNobodySignedInIs401() {
        String id = authorize();
        String forged = id.substring(0, id.length() - 3) + "aaa";

        assertThat(http.get("/api/agents/authorize/" + URLEncoder.encode(forged, StandardCharsets.UTF_8),
                "Cookie", ana).statusCode()).isEqualTo(404);
        assertThat(http.get("/api/agents/authorize/" + URLEncoder.encode(id, StandardCharsets.UTF_8))
                .statusCode()).isEqualTo(401);
    }
}
