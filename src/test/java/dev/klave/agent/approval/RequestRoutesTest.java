package dev.klave.agent.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.messages.Message;
import dev.klave.kube.Query;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code /api/agents/requests} as the people deciding see it: administrators decide bots'
 * requests, a person their own agent's; anyone else finds nothing (404); a request decided or run
 * out cannot be decided again (409); an approved access request is a grant like any other.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestRoutesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ClusterId PROD = new ClusterId("prod-1");

    private final TestingClock clock = new TestingClock();
    private TestingKlave klave;
    private TestingHttp http;
    private Approvals approvals;
    private AccessRequests accessRequests;
    private String root;
    private String ana;
    private String eva;
    private SubjectId anaId;
    private SubjectId deployer;

    @BeforeAll
    void start() throws Exception {
        klave = TestingKlave.start(clock, settings -> settings);
        http = klave.http();
        approvals = klave.hooks().approvals();
        accessRequests = klave.hooks().accessRequests();
        root = TestingPeople.signUp(klave, "root", true);
        ana = TestingPeople.signUp(klave, "ana", false);
        eva = TestingPeople.signUp(klave, "eva", false);
        anaId = new SubjectId(json(http.get("/api/me", "Cookie", ana)).get("id").asText());
        deployer = new SubjectId(json(http.send("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"deployer\"}",
                "Cookie", root)).get("id").asText());
        http.send("POST", "/api/clusters", "{\"id\":\"prod-1\",\"name\":\"Producción\"}", "Cookie", root);
        // What asks for a held write is real: an approval of one whose asker cannot run it is refused.
        http.send("POST", "/api/grants", "{\"subject_id\":\"" + deployer.value() + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", root);
        HttpResponse<String> issued = http.send("POST", "/api/credentials", "{\"ttl\":\"24h\",\"subject_id\":\""
                + deployer.value() + "\"}", "Cookie", root);
        assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
        deployerCredential = json(issued).get("id").asText();
        new dev.klave.store.JdbiAgentSessionStore(klave.klave().database()).create(new dev.klave.oauth.session
                .AgentSession("agent-session", anaId, "cliente-de-prueba", java.util.List.of(), true, "password",
                clock.instant(), clock.instant().plus(java.time.Duration.ofDays(30)), Optional.empty(),
                Optional.empty(), Optional.empty()));
    }

    private String deployerCredential;

    @AfterAll
    void stop() {
        klave.close();
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    private WriteRequest botsWrite() {
        return approvals.hold(new Actor(deployer, Optional.of(deployerCredential), Optional.empty()), Optional.empty(),
                PROD, "team-a", "scale", "scale", "deployments", "web", UUID.randomUUID().toString(),
                ApprovalsFixture.SCALE, "{\"replicas\":{\"antes\":1,\"después\":3}}");
    }

    private WriteRequest anasWrite() {
        return approvals.hold(new Actor(anaId, Optional.empty(), Optional.of("agent-session")), Optional.of(anaId),
                PROD, "", "delete_resource", "delete", "namespaces", "team-z", UUID.randomUUID().toString(),
                new HeldCall(Method.DELETE, ClusterPath.of("api", "v1", "namespaces", "team-z"), Query.NONE,
                        Optional.empty(), Optional.empty()), "{}");
    }

    private HttpResponse<String> decide(String id, String decision, String cookie) {
        return http.send("POST", "/api/agents/requests/" + id + "/" + decision, null, "Cookie", cookie);
    }

    @Test
    void anAdministratorSeesAndApprovesABotsWrite() throws Exception {
        WriteRequest request = botsWrite();

        JsonNode listed = json(http.get("/api/agents/requests", "Cookie", root));
        assertThat(listed.get("write_requests").findValuesAsText("id")).contains(request.id());
        JsonNode shown = json(http.get("/api/agents/requests/" + request.id(), "Cookie", root));
        assertThat(shown.get("kind").asText()).isEqualTo("write");
        assertThat(shown.get("status").asText()).isEqualTo("pending");
        assertThat(shown.get("cluster").asText()).isEqualTo("prod-1");
        assertThat(shown.get("namespace").asText()).isEqualTo("team-a");
        assertThat(shown.get("verb").asText() + " " + shown.get("resource").asText() + "/" + shown.get("name").asText())
                .isEqualTo("scale deployments/web");
        assertThat(shown.get("subject").toString())
                .isEqualTo("{\"id\":\"" + deployer + "\",\"login\":\"deployer\",\"kind\":\"bot\"}");
        assertThat(shown.get("created_at").asText()).isEqualTo(clock.instant().toString());
        assertThat(shown.get("expires_at").asText()).isEqualTo(clock.instant().plus(Approvals.LIFETIME).toString());
        assertThat(shown.get("decided_at").isNull()).isTrue();
        assertThat(shown.get("preview").get("replicas").get("después").asInt()).as("the preview, as an object")
                .isEqualTo(3);

        HttpResponse<String> approved = decide(request.id(), "approve", root);

        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(json(approved).get("status").asText()).isEqualTo("approved");
        assertThat(json(approved).get("decided_by").asText()).isEqualTo("root");
        assertThat(json(approved).get("decided_at").asText()).isEqualTo(clock.instant().toString());
        assertThat(approvals.find(request.id()).orElseThrow().status()).isEqualTo(WriteStatus.APPROVED);
        assertThat(json(http.get("/api/control-events", "Cookie", root)).get("events").findValuesAsText("type"))
                .contains("agent.write_approved");
    }

    /** Issue 40 item 1: the menu's count is what waits for the caller's own decision, and drops when decided. */
    @Test
    void whatWaitsIsCountedForWhoeverCanDecideIt() throws Exception {
        JsonNode before = json(http.get("/api/agents/waiting", "Cookie", root));
        WriteRequest bots = botsWrite();
        WriteRequest anas = anasWrite();

        JsonNode forRoot = json(http.get("/api/agents/waiting", "Cookie", root));
        JsonNode forAna = json(http.get("/api/agents/waiting", "Cookie", ana));
        JsonNode forEva = json(http.get("/api/agents/waiting", "Cookie", eva));
        assertThat(forRoot.get("writes").asInt()).isEqualTo(before.get("writes").asInt() + 1);
        assertThat(forRoot.get("total").asInt()).isEqualTo(forRoot.get("writes").asInt()
                + forRoot.get("access").asInt());
        assertThat(forAna.get("writes").asInt()).as("her own agent's write").isEqualTo(1);
        assertThat(forEva.toString()).isEqualTo("{\"writes\":0,\"access\":0,\"people\":0,\"total\":0}");
        assertThat(http.get("/api/agents/waiting").statusCode()).isEqualTo(401);

        assertThat(decide(bots.id(), "deny", root).statusCode()).isEqualTo(200);
        assertThat(decide(anas.id(), "deny", ana).statusCode()).isEqualTo(200);
        assertThat(json(http.get("/api/agents/waiting", "Cookie", root)).get("writes").asInt())
                .isEqualTo(before.get("writes").asInt());
        assertThat(json(http.get("/api/agents/waiting", "Cookie", ana)).get("total").asInt()).isZero();
        JsonNode denied = json(http.get("/api/control-events?type=agent.write_denied", "Cookie", root)).get("events");
        assertThat(denied.findValuesAsText("requester")).contains("bot", "person");
    }

    @Test
    void aDecisionIsMadeOnce() {
        WriteRequest request = botsWrite();
        assertThat(decide(request.id(), "deny", root).statusCode()).isEqualTo(200);

        for (String decision : new String[] {"approve", "deny"}) {
            HttpResponse<String> again = decide(request.id(), decision, root);
            assertThat(again.statusCode()).isEqualTo(409);
            assertThat(again.body()).isEqualTo("{\"error\":\"la solicitud ya no está pendiente\"}");
        }
        assertThat(approvals.find(request.id()).orElseThrow().status()).isEqualTo(WriteStatus.DENIED);
    }

    @Test
    void aRequestThatRanOutCannotBeApproved() throws Exception {
        WriteRequest request = anasWrite();
        clock.advance(Approvals.LIFETIME);

        HttpResponse<String> late = decide(request.id(), "approve", ana);

        assertThat(late.statusCode()).isEqualTo(409);
        assertThat(late.body()).isEqualTo("{\"error\":\"la solicitud ha caducado\"}");
        assertThat(json(http.get("/api/agents/requests/" + request.id(), "Cookie", ana)).get("status").asText())
                .isEqualTo("expired");
    }

    @Test
    void nobodyButTheDeciderFindsARequest() {
        WriteRequest bots = botsWrite();
        WriteRequest anas = anasWrite();

        for (String[] attempt : new String[][] {{bots.id(), ana}, {anas.id(), eva}, {anas.id(), root},
                {"wr_unknown", root}, {"ar_unknown", root}, {"anything", root}}) {
            HttpResponse<String> shown = http.get("/api/agents/requests/" + attempt[0], "Cookie", attempt[1]);
            HttpResponse<String> approved = decide(attempt[0], "approve", attempt[1]);
            assertThat(shown.statusCode()).as("GET %s", attempt[0]).isEqualTo(404);
            assertThat(shown.body()).isEqualTo("{\"error\":\"no encontrado\"}");
            assertThat(approved.statusCode()).as("approve %s", attempt[0]).isEqualTo(404);
        }
        assertThat(http.get("/api/agents/requests/" + anas.id()).statusCode()).as("signed out").isEqualTo(401);
        assertThat(decide(anas.id(), "approve", ana).statusCode()).as("her own agent's").isEqualTo(200);
        assertThat(approvals.find(bots.id()).orElseThrow().status()).isEqualTo(WriteStatus.PENDING);
    }

    @Test
    void aDecisionTakesNoBodyOrAnEmptyObjectOnly() {
        WriteRequest request = anasWrite();

        HttpResponse<String> withField = http.send("POST", "/api/agents/requests/" + request.id() + "/approve",
                "{\"comment\":\"ok\"}", "Cookie", ana);
        HttpResponse<String> empty = http.send("POST", "/api/agents/requests/" + request.id() + "/approve", "{}",
                "Cookie", ana);

        assertThat(withField.statusCode()).isEqualTo(400);
        assertThat(empty.statusCode()).isEqualTo(200);
    }

    @Test
    void aBotsApprovedAccessRequestIsAGrantLikeAnyOtherForTheMinutesAsked() throws Exception {
        Actor agent = new Actor(deployer, Optional.of(deployerCredential), Optional.empty());
        AccessRequest request = accessRequests.request(agent, Optional.empty(), PROD, new Scope("team-a"),
                Tier.VIEW, 90, "revisar por qué falla el despliegue");
        JsonNode shown = json(http.get("/api/agents/requests/" + request.id(), "Cookie", root));
        assertThat(shown.get("kind").asText()).isEqualTo("access");
        assertThat(shown.get("role").asText() + " " + shown.get("scope").asText() + " " + shown.get("minutes"))
                .isEqualTo("view team-a 90");
        assertThat(json(http.get("/api/agents/requests", "Cookie", root)).get("access_requests").findValuesAsText("id"))
                .contains(request.id());
        assertThat(http.get("/api/agents/requests/" + request.id(), "Cookie", ana).statusCode()).isEqualTo(404);

        HttpResponse<String> approved = decide(request.id(), "approve", root);

        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        JsonNode decided = json(approved);
        String expiry = clock.instant().plus(Duration.ofMinutes(90)).toString();
        assertThat(decided.get("status").asText()).isEqualTo("approved");
        assertThat(decided.get("grant_expires_at").asText()).isEqualTo(expiry);
        JsonNode grant = null;
        for (JsonNode each : json(http.get("/api/grants?subject=" + deployer.value(), "Cookie", root))) {
            grant = each.get("id").asText().equals(decided.get("grant_id").asText()) ? each : grant;
        }
        assertThat(grant).as("the grant, listed as any other").isNotNull();
        assertThat(grant.get("tier").asText()).isEqualTo("view");
        assertThat(grant.get("scope").asText()).isEqualTo("team-a");
        assertThat(grant.get("cluster_id").asText()).isEqualTo("prod-1");
        assertThat(grant.get("expires_at").asText()).isEqualTo(expiry);
        assertThat(grant.get("note").asText()).contains(request.id(), "revisar por qué falla el despliegue");
        assertThat(accessRequests.inForce(agent, clock.instant())).extracting(AccessRequest::id)
                .containsExactly(request.id());
        assertThat(decide(request.id(), "approve", root).statusCode()).as("no second grant").isEqualTo(409);
    }

    /** The agent-safety review: approving one's agent's request once made the person a grant of their own. */
    @Test
    void aDelegatedSessionsRequestIsNeverAGrantOfThePersonAndNeedsAGrantThatCoversIt() throws Exception {
        Actor agent = new Actor(anaId, Optional.empty(), Optional.of("agent-session"));
        AccessRequest request = accessRequests.request(agent, Optional.of(anaId), PROD, new Scope("team-a"),
                Tier.EDIT, 480, "arreglar el despliegue");

        HttpResponse<String> approved = decide(request.id(), "approve", ana);

        assertThat(approved.statusCode()).isEqualTo(409);
        assertThat(json(approved).get("error").asText()).isEqualTo(Message.REQUEST_NOT_HELD.text());
        assertThat(json(http.get("/api/grants?subject=" + anaId.value(), "Cookie", root)).findValuesAsText("id"))
                .isEmpty();
        assertThat(json(http.get("/api/agents/requests/" + request.id(), "Cookie", ana)).get("status").asText())
                .isEqualTo("pending");
    }

    @Test
    void anAccessRequestAsksForOneToFourHundredEightyMinutesWithAReason() {
        Actor agent = new Actor(anaId, Optional.empty(), Optional.of("agent-session"));
        for (int minutes : new int[] {0, 481, -1}) {
            assertThatThrownBy(() -> accessRequests.request(agent, Optional.of(anaId), PROD, Scope.ALL, Tier.VIEW,
                    minutes, "ver")).hasMessage("minutes debe estar entre 1 y 480");
        }
        for (String reason : new String[] {"", "  ", "x".repeat(501)}) {
            assertThatThrownBy(() -> accessRequests.request(agent, Optional.of(anaId), PROD, Scope.ALL, Tier.VIEW, 5,
                    reason)).hasMessage("reason es obligatorio y tiene como mucho 500 caracteres");
        }
        AccessRequest longest = accessRequests.request(agent, Optional.of(anaId), PROD, Scope.ALL, Tier.VIEW, 480,
                "x".repeat(500));
        assertThat(longest.id()).matches("ar_[A-Za-z0-9_-]{22}");
        assertThat(longest.expiresAt()).isEqualTo(clock.instant().plus(AccessRequests.LIFETIME));
    }

    @Test
    void aDeniedAccessRequestGrantsNothing() throws Exception {
        AccessRequest request = accessRequests.request(new Actor(deployer, Optional.of("credential-1"),
                Optional.empty()), Optional.empty(), PROD, new Scope("team-b"), Tier.VIEW, 30, "leer logs");

        HttpResponse<String> denied = decide(request.id(), "deny", root);

        assertThat(denied.statusCode()).isEqualTo(200);
        assertThat(json(denied).get("status").asText()).isEqualTo("denied");
        assertThat(json(denied).get("grant_id").isNull()).isTrue();
        assertThat(json(http.get("/api/grants?subject=" + deployer, "Cookie", root)).findValuesAsText("scope"))
                .doesNotContain("team-b");
    }
}
