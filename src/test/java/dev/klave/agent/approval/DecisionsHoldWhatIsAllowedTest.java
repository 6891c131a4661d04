package dev.klave.agent.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.messages.Refusal;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 51 §5, §7, §15, §16, §18: a decision applies what is allowed when it is made, not what was
 * asked. An outside attack saw an approval create the grant of an eligible grant removed meanwhile,
 * one approval suffice where the policy had since asked for two, 30 minutes granted under a
 * 15-minute maximum, a first approval count whose author had been disabled, and a disabled
 * person's requested grants come back when she was enabled again. Each is checked here as an
 * administrator and a requester see it, with its event.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DecisionsHoldWhatIsAllowedTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestingClock clock = new TestingClock();
    private TestingKlave klave;
    private TestingHttp http;
    private String root;
    private String ana;
    private String luis;
    private String eva;
    private String anaId;
    private String luisId;
    private String evaId;
    private int clusters;

    @BeforeAll
    void start() throws Exception {
        klave = TestingKlave.start(clock, settings -> settings);
        http = klave.http();
        root = TestingPeople.signUp(klave, "root", true);
        ana = TestingPeople.signUp(klave, "ana", false);
        luis = TestingPeople.signUp(klave, "luis", false);
        eva = TestingPeople.signUp(klave, "eva", false);
        anaId = json(http.get("/api/me", "Cookie", ana)).get("id").asText();
        luisId = json(http.get("/api/me", "Cookie", luis)).get("id").asText();
        evaId = json(http.get("/api/me", "Cookie", eva)).get("id").asText();
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    private String cluster() {
        String id = "d-" + ++clusters;
        http.send("POST", "/api/clusters", "{\"id\":\"" + id + "\",\"name\":\"Cluster " + clusters + "\"}", "Cookie",
                root);
        return id;
    }

    private void policy(String cluster, int maxMinutes, boolean twoApprovals, String... deciders) {
        StringBuilder named = new StringBuilder();
        for (String decider : deciders) {
            named.append(named.isEmpty() ? "" : ",").append('"').append(decider).append('"');
        }
        HttpResponse<String> set = http.send("PUT", "/api/access/policies/" + cluster, "{\"max_minutes\":" + maxMinutes
                + ",\"two_approvals\":" + twoApprovals + ",\"deciders\":[" + named + "]}", "Cookie", root);
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    }

    private String ask(String cookie, String cluster, String tier, int minutes) throws Exception {
        HttpResponse<String> asked = http.send("POST", "/api/access/requests", "{\"cluster_id\":\"" + cluster
                + "\",\"tier\":\"" + tier + "\",\"scope\":\"*\",\"minutes\":" + minutes + ",\"reason\":\"incidente\"}",
                "Cookie", cookie);
        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(201);
        return json(asked).get("id").asText();
    }

    private HttpResponse<String> approve(String id, String cookie) {
        return http.send("POST", "/api/access/requests/" + id + "/approve", null, "Cookie", cookie);
    }

    private JsonNode request(String id) throws Exception {
        return json(http.get("/api/access/requests/" + id, "Cookie", root)).get("request");
    }

    private JsonNode grantsOf(String subject, String cluster) throws Exception {
        return json(http.get("/api/grants?subject=" + subject + "&cluster=" + cluster, "Cookie", root));
    }

    private List<JsonNode> events(String type) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        json(http.get("/api/control-events?type=" + type, "Cookie", root)).get("events").forEach(found::add);
        return found;
    }

    private static void assertRefused(HttpResponse<String> response, int status, String sentence) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(json(response).get("error").asText()).contains(sentence);
    }

    @Test
    void revokingAnEligibleGrantWithdrawsItsWaitingActivation() throws Exception {
        String cluster = cluster();
        String eligible = json(http.send("POST", "/api/access/eligible", "{\"subject_id\":\"" + evaId
                + "\",\"cluster_id\":\"" + cluster + "\",\"tier\":\"admin\",\"scope\":\"*\",\"max_minutes\":60,"
                + "\"needs_approval\":true}", "Cookie", root)).get("id").asText();
        String waiting = json(http.send("POST", "/api/access/eligible/" + eligible + "/activate",
                "{\"minutes\":30,\"reason\":\"guardia\"}", "Cookie", eva)).get("id").asText();

        assertThat(http.send("DELETE", "/api/access/eligible/" + eligible, null, "Cookie", root).statusCode())
                .isEqualTo(204);

        JsonNode withdrawn = request(waiting);
        assertThat(withdrawn.get("status").asText()).isEqualTo("cancelled");
        assertThat(withdrawn.get("comment").asText()).contains("el permiso elegible que activaba se retiró");
        assertRefused(approve(waiting, root), 409, "la solicitud ya no está pendiente");
        assertThat(grantsOf(evaId, cluster).findValuesAsText("tier")).doesNotContain("admin");
    }

    @Test
    void aPolicyChangedAfterARequestReachesItsDecision() throws Exception {
        String cluster = cluster();
        String broad = ask(eva, cluster, "admin", 15);
        String narrow = ask(eva, cluster, "view", 30);
        // Since: broad access needs two approvals, and nobody gets more than 15 minutes.
        policy(cluster, 15, true);

        JsonNode first = json(approve(broad, root));
        assertThat(first.get("status").asText()).as("one approval no longer suffices").isEqualTo("pending");
        assertThat(first.get("approvals_needed").asInt()).isEqualTo(2);
        assertRefused(approve(narrow, root), 409, "la solicitud pide 30 minutos y ahora se permiten como mucho 15");
        assertThat(request(narrow).get("status").asText()).isEqualTo("pending");
        assertThat(grantsOf(evaId, cluster).size()).isZero();
    }

    @Test
    void aFirstApprovalWhoseAuthorWasDisabledOrIsNoLongerADeciderDoesNotCount() throws Exception {
        String cluster = cluster();
        policy(cluster, 120, true, anaId, luisId);
        String request = ask(eva, cluster, "admin", 30);
        assertThat(json(approve(request, ana)).get("first_approval").get("by").asText()).isEqualTo("ana");

        // Ana is no longer a decider of this cluster: Luis's approval is the first, not the second.
        policy(cluster, 120, true, luisId);
        JsonNode afterLuis = json(approve(request, luis));
        assertThat(afterLuis.get("status").asText()).isEqualTo("pending");
        assertThat(afterLuis.get("first_approval").get("by").asText()).isEqualTo("luis");
        assertThat(events("access_request.first_approval").get(0).get("details").get("replaced_first").asText())
                .isEqualTo("ana");

        // Luis is disabled: root's approval is again only the first.
        http.send("POST", "/api/subjects/" + luisId + "/disable", null, "Cookie", root);
        JsonNode afterRoot = json(approve(request, root));
        assertThat(afterRoot.get("status").asText()).isEqualTo("pending");
        assertThat(grantsOf(evaId, cluster).size()).isZero();
        http.send("POST", "/api/subjects/" + luisId + "/enable", null, "Cookie", root);
        luis = TestingPeople.signIn(http, "luis", TestingPeople.PASSWORD);
    }

    @Test
    void disablingAPersonWithdrawsWhatSheAskedAndEndsWhatHerRequestsGaveForGood() throws Exception {
        String cluster = cluster();
        String running = ask(eva, cluster, "edit", 60);
        assertThat(json(approve(running, root)).get("status").asText()).isEqualTo("approved");
        String waiting = ask(eva, cluster, "admin", 60);

        http.send("POST", "/api/subjects/" + evaId + "/disable", null, "Cookie", root);

        assertThat(request(waiting).get("status").asText()).isEqualTo("cancelled");
        assertThat(request(waiting).get("comment").asText()).contains("la cuenta de quien la pidió se deshabilitó");
        assertRefused(approve(waiting, root), 409, "la solicitud ya no está pendiente");
        assertThat(request(running).get("access").asText()).isEqualTo("ended");

        http.send("POST", "/api/subjects/" + evaId + "/enable", null, "Cookie", root);
        eva = TestingPeople.signIn(http, "eva", TestingPeople.PASSWORD);
        for (JsonNode grant : grantsOf(evaId, cluster)) {
            assertThat(grant.get("revoked_at").isNull()).as("nothing comes back: " + grant).isFalse();
        }
    }

    @Test
    void anEligibleGrantWithoutApprovalOnATwoApprovalClusterGoesToTheQueue() throws Exception {
        // The cluster's policy wins: broad access where it wants two approvals waits for them.
        String cluster = cluster();
        policy(cluster, 120, true);
        String eligible = json(http.send("POST", "/api/access/eligible", "{\"subject_id\":\"" + evaId
                + "\",\"cluster_id\":\"" + cluster + "\",\"tier\":\"admin\",\"scope\":\"*\",\"max_minutes\":60,"
                + "\"needs_approval\":false}", "Cookie", root)).get("id").asText();

        HttpResponse<String> activated = http.send("POST", "/api/access/eligible/" + eligible + "/activate",
                "{\"minutes\":30,\"reason\":\"guardia\"}", "Cookie", eva);

        assertThat(activated.statusCode()).as(activated.body()).isEqualTo(201);
        assertThat(json(activated).get("status").asText()).isEqualTo("pending");
        assertThat(json(activated).get("approvals_needed").asInt()).isEqualTo(2);
    }

    @Test
    void aRequestsAccessReadsAsEndedAsSoonAsAnAdministratorRevokesItsGrant() throws Exception {
        String cluster = cluster();
        String id = ask(eva, cluster, "edit", 60);
        String grant = json(approve(id, root)).get("grant_id").asText();
        assertThat(request(id).get("access").asText()).isEqualTo("active");

        assertThat(http.send("DELETE", "/api/grants/" + grant, null, "Cookie", root).statusCode()).isEqualTo(204);

        assertThat(request(id).get("access").asText()).as("before any sweep").isEqualTo("ended");
    }

    @Test
    void aBotsRequestForAProtectedNamespaceIsRefusedWhenAsked() {
        String cluster = cluster();
        String bot;
        try {
            bot = json(http.send("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"vigia-" + clusters + "\"}",
                    "Cookie", root)).get("id").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        int before = json(() -> http.get("/api/agents/waiting", "Cookie", root)).path("access").asInt();
        Assertions.assertThatThrownBy(() -> klave.hooks().accessRequests().request(new Actor(
                new SubjectId(bot), Optional.of("cred-1"), Optional.empty()), Optional.empty(), new ClusterId(cluster),
                new Scope("kube-system"), Tier.VIEW, 30, "mirar"))
                .isInstanceOf(Refusal.class).hasMessageContaining("kube-system");
        assertThat(json(() -> http.get("/api/agents/waiting", "Cookie", root)).path("access").asInt())
                .as("no decider was asked").isEqualTo(before);
    }

    private static JsonNode json(java.util.function.Supplier<HttpResponse<String>> call) {
        try {
            return json(call.get());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
