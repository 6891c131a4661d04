package dev.klave.agent.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * People's access requests through {@code /api/access/…} (issue 41), as a requester, a decider and
 * an attacker see them: asking with a session or from a terminal with one's own credential, who
 * decides (administrators and a cluster's named deciders, never the requester, two people for broad
 * access when the cluster says so), the grant an approval makes and its early end, eligible grants
 * activated at once or after approval, and the sweep's expiry and ends — each with its event.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PeopleAccessRequestsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestingClock clock = new TestingClock();
    private TestingKlave klave;
    private TestingHttp http;
    private AccessRequests accessRequests;
    private String root;
    private String ana;
    private String eva;
    private String anaId;
    private String evaId;
    private String botId;
    private int clusters;

    @BeforeAll
    void start() throws Exception {
        klave = TestingKlave.start(clock, settings -> settings);
        http = klave.http();
        accessRequests = klave.hooks().accessRequests();
        root = TestingPeople.signUp(klave, "root", true);
        ana = TestingPeople.signUp(klave, "ana", false);
        eva = TestingPeople.signUp(klave, "eva", false);
        anaId = json(http.get("/api/me", "Cookie", ana)).get("id").asText();
        evaId = json(http.get("/api/me", "Cookie", eva)).get("id").asText();
        botId = json(http.send("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"vigia\"}", "Cookie", root))
                .get("id").asText();
    }

    /** After moving the clock past sessions' lifetime, everybody signs in afresh. */
    private void signInAgain() {
        root = TestingPeople.signIn(http, "root", TestingPeople.PASSWORD);
        ana = TestingPeople.signIn(http, "ana", TestingPeople.PASSWORD);
        eva = TestingPeople.signIn(http, "eva", TestingPeople.PASSWORD);
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    /** A fresh cluster per test: requests and policies of one test never meet another's. */
    private String cluster() {
        String id = "c-" + ++clusters;
        http.send("POST", "/api/clusters", "{\"id\":\"" + id + "\",\"name\":\"Cluster " + clusters + "\"}", "Cookie",
                root);
        return id;
    }

    private HttpResponse<String> ask(String cookie, String cluster, String tier, String scope, int minutes,
            String reason) {
        return http.send("POST", "/api/access/requests", "{\"cluster_id\":\"" + cluster + "\",\"tier\":\"" + tier
                + "\",\"scope\":\"" + scope + "\",\"minutes\":" + minutes + ",\"reason\":\"" + reason + "\"}",
                "Cookie", cookie);
    }

    private HttpResponse<String> decide(String id, String decision, String cookie, String body) {
        return http.send("POST", "/api/access/requests/" + id + "/" + decision, body, "Cookie", cookie);
    }

    private List<String> eventTypes() throws Exception {
        List<String> types = new ArrayList<>();
        json(http.get("/api/control-events", "Cookie", root)).get("events")
                .forEach(event -> types.add(event.get("type").asText()));
        return types;
    }

    private JsonNode grantsOf(String subject, String cluster) throws Exception {
        return json(http.get("/api/grants?subject=" + subject + "&cluster=" + cluster, "Cookie", root));
    }

    @Test
    void aPersonAsksAnAdministratorApprovesWithACommentAndTheGrantEndsByItself() throws Exception {
        String cluster = cluster();
        HttpResponse<String> asked = ask(eva, cluster, "admin", "*", 90, "incidente 4711: reiniciar el ingress");

        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(201);
        JsonNode request = json(asked);
        String id = request.get("id").asText();
        assertThat(request.get("status").asText()).isEqualTo("pending");
        assertThat(request.get("origin").asText()).isEqualTo("person");
        assertThat(request.get("subject").get("login").asText()).isEqualTo("eva");
        assertThat(json(http.get("/api/access/requests", "Cookie", eva)).get("requests").findValuesAsText("id"))
                .contains(id);
        assertThat(json(http.get("/api/agents/waiting", "Cookie", root)).get("access").asInt())
                .as("one queue: the menu's count holds people's requests").isGreaterThanOrEqualTo(1);
        JsonNode detail = json(http.get("/api/access/requests/" + id, "Cookie", root));
        assertThat(detail.get("decidable").asBoolean()).isTrue();
        assertThat(detail.get("context").get("grants").size()).isZero();
        assertThat(detail.get("context").get("activity").get("days").asInt()).isEqualTo(7);

        assertThat(decide(id, "approve", eva, null).statusCode()).as("never the requester").isEqualTo(404);
        assertThat(decide(id, "approve", ana, null).statusCode()).as("not a decider").isEqualTo(404);
        assertThat(http.get("/api/access/requests/" + id, "Cookie", ana).statusCode()).isEqualTo(404);

        HttpResponse<String> approved = decide(id, "approve", root, "{\"comment\":\"adelante, avisa al acabar\"}");

        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(json(approved).get("status").asText()).isEqualTo("approved");
        assertThat(json(approved).get("access").asText()).isEqualTo("active");
        assertThat(json(approved).get("comment").asText()).isEqualTo("adelante, avisa al acabar");
        JsonNode grant = grantsOf(evaId, cluster).get(0);
        assertThat(grant.get("tier").asText() + " " + grant.get("scope").asText()).isEqualTo("admin *");
        assertThat(Instant.parse(grant.get("expires_at").asText())).isEqualTo(clock.instant().plusSeconds(90 * 60));
        assertThat(grant.get("note").asText()).contains(id).contains("incidente 4711");
        assertThat(eventTypes()).contains("access_request.create", "access_request.approve", "grant.create");

        clock.advance(Duration.ofMinutes(91));
        signInAgain();
        assertThat(klave.hooks().sweepAccessRequests(100)).isGreaterThanOrEqualTo(1);
        JsonNode ended = json(http.get("/api/access/requests/" + id, "Cookie", eva)).get("request");
        assertThat(ended.get("access").asText()).isEqualTo("ended");
        assertThat(ended.get("ended_by").isNull()).isTrue();
        assertThat(eventTypes()).contains("access_request.end");
        assertThat(grantsOf(evaId, cluster).get(0).get("active").asBoolean()).isFalse();
    }

    @Test
    void theRequesterEndsTheirAccessEarlyAndTheGrantIsRevokedWithIt() throws Exception {
        String cluster = cluster();
        String id = json(ask(eva, cluster, "view", "*", 60, "revisar un despliegue")).get("id").asText();
        decide(id, "approve", root, null);

        assertThat(decide(id, "end", root, null).statusCode()).as("only the requester ends it").isEqualTo(404);
        HttpResponse<String> ended = decide(id, "end", eva, null);

        assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);
        assertThat(json(ended).get("access").asText()).isEqualTo("ended");
        assertThat(json(ended).get("ended_by").asText()).isEqualTo("eva");
        assertThat(grantsOf(evaId, cluster).size()).as("revoked grants are not listed without include_revoked")
                .isZero();
        HttpResponse<String> again = decide(id, "end", eva, null);
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.body()).contains("ese acceso ya no está en vigor");
        assertThat(eventTypes()).contains("access_request.end", "grant.revoke");
    }

    @Test
    void badRequestsAreRefusedWithTheirSentenceAndStoreNothing() throws Exception {
        String cluster = cluster();
        assertRefused(ask(eva, cluster, "cluster-admin", "*", 60, "x"), 400,
                "cluster-admin no se pide ni se activa: solo se concede como permiso fijo");
        assertRefused(ask(eva, cluster, "view", "*", 10, "x"), 400, "la duración va de 15 a 480 minutos en este cluster");
        assertRefused(ask(eva, cluster, "view", "*", 481, "x"), 400, "la duración va de 15 a 480 minutos");
        assertRefused(ask(eva, cluster, "view", "*", 60, "   "), 400, "di por qué necesitas el acceso");
        assertRefused(ask(eva, cluster, "view", "kube-system", 60, "x"), 400, "el namespace kube-system está protegido");
        assertRefused(ask(eva, "no-such", "view", "*", 60, "x"), 404, "");
        assertRefused(ask(eva, cluster, "view", "Team A", 60, "x"), 400, "ámbito no válido");
        assertThat(json(http.get("/api/access/requests", "Cookie", eva)).get("requests").findValuesAsText("cluster"))
                .doesNotContain(cluster);

        assertThat(ask(eva, cluster, "view", "*", 60, "una").statusCode()).isEqualTo(201);
        assertRefused(ask(eva, cluster, "view", "*", 30, "otra"), 409, "ya tienes una solicitud igual esperando decisión");
        assertThat(http.send("POST", "/api/access/requests", "{\"cluster_id\":\"" + cluster + "\",\"tier\":\"view\","
                + "\"scope\":\"*\",\"minutes\":60,\"reason\":\"x\",\"extra\":1}", "Cookie", eva).statusCode())
                .as("an unknown field").isEqualTo(400);
        assertThat(http.send("POST", "/api/access/requests", "{}", "Origin", "https://evil.example", "Cookie", eva)
                .statusCode()).as("another origin").isEqualTo(403);
        assertThat(http.send("POST", "/api/access/requests", "{}").statusCode()).as("nobody").isEqualTo(401);
    }

    @Test
    void holdingTheAccessAlreadyOrAskingTooMuchIsRefused() throws Exception {
        String cluster = cluster();
        http.send("POST", "/api/grants", "{\"subject_id\":\"" + evaId + "\",\"cluster_id\":\"" + cluster
                + "\",\"tier\":\"edit\",\"scope\":\"*\"}", "Cookie", root);

        assertRefused(ask(eva, cluster, "view", "*", 60, "x"), 409, "ya tienes un permiso que cubre ese acceso");
        for (int i = 0; i < AccessRequests.MAX_WAITING; i++) {
            String other = cluster();
            if (ask(eva, other, "view", "*", 60, "lote").statusCode() != 201) {
                break;
            }
        }
        HttpResponse<String> tooMany = ask(eva, cluster(), "view", "*", 60, "una más");
        assertRefused(tooMany, 409, "solicitudes esperando decisión: cancela alguna antes de pedir otra");
        // Leave the queue as other tests expect it: eva's waiting requests cancelled.
        json(http.get("/api/access/requests", "Cookie", eva)).get("requests").forEach(request -> {
            if (request.get("status").asText().equals("pending")) {
                decide(request.get("id").asText(), "cancel", eva, null);
            }
        });
    }

    @Test
    void theRequesterCancelsWhatWaitsAndNobodyElseCan() throws Exception {
        String cluster = cluster();
        String id = json(ask(eva, cluster, "view", "*", 60, "ya no hace falta")).get("id").asText();

        assertThat(decide(id, "cancel", ana, null).statusCode()).isEqualTo(404);
        HttpResponse<String> cancelled = decide(id, "cancel", eva, null);

        assertThat(json(cancelled).get("status").asText()).isEqualTo("cancelled");
        assertRefused(decide(id, "cancel", eva, null), 409, "la solicitud ya no está pendiente");
        assertRefused(decide(id, "approve", root, null), 409, "la solicitud ya no está pendiente");
        assertThat(eventTypes()).contains("access_request.cancel");
    }

    @Test
    void aClustersNamedDecidersDecideAndBroadAccessNeedsTwoPeople() throws Exception {
        String cluster = cluster();
        assertThat(http.send("PUT", "/api/access/policies/" + cluster, "{\"max_minutes\":120,\"two_approvals\":true,"
                + "\"deciders\":[\"" + anaId + "\"]}", "Cookie", ana).statusCode()).isEqualTo(403);
        HttpResponse<String> set = http.send("PUT", "/api/access/policies/" + cluster, "{\"max_minutes\":120,"
                + "\"two_approvals\":true,\"deciders\":[\"" + anaId + "\"]}", "Cookie", root);
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        assertThat(json(set).get("deciders").findValuesAsText("login")).containsExactly("ana");
        assertRefused(http.send("PUT", "/api/access/policies/" + cluster, "{\"max_minutes\":120,"
                + "\"two_approvals\":true,\"deciders\":[\"" + botId + "\"]}", "Cookie", root), 400,
                "no puede decidir: nombra personas con la cuenta habilitada");
        assertRefused(ask(eva, cluster, "view", "*", 121, "x"), 400, "la duración va de 15 a 120 minutos");

        String narrow = json(ask(eva, cluster, "view", "team-a", 30, "mirar logs")).get("id").asText();
        String broad = json(ask(eva, cluster, "admin", "*", 30, "incidente")).get("id").asText();
        assertThat(json(http.get("/api/access/requests/" + broad, "Cookie", eva)).get("request")
                .get("approvals_needed").asInt()).isEqualTo(2);

        assertThat(json(http.get("/api/agents/requests", "Cookie", ana)).get("access_requests").findValuesAsText("id"))
                .as("a named decider sees the cluster's queue").contains(narrow, broad);
        assertThat(json(decide(narrow, "approve", ana, null)).get("status").asText()).as("one approval: narrow")
                .isEqualTo("approved");

        JsonNode first = json(decide(broad, "approve", ana, "{\"comment\":\"por mí, sí\"}"));
        assertThat(first.get("status").asText()).isEqualTo("pending");
        assertThat(first.get("first_approval").get("by").asText()).isEqualTo("ana");
        assertRefused(decide(broad, "approve", ana, null), 409, "necesita dos aprobaciones de personas distintas");
        assertThat(grantsOf(evaId, cluster).findValuesAsText("tier")).doesNotContain("admin");

        JsonNode second = json(decide(broad, "approve", root, null));
        assertThat(second.get("status").asText()).isEqualTo("approved");
        assertThat(grantsOf(evaId, cluster).findValuesAsText("tier")).contains("admin");
        assertThat(eventTypes()).contains("access_policy.update", "access_request.first_approval");
    }

    @Test
    void aBotsRequestGoesToTheSameQueueAndDeciders() throws Exception {
        String cluster = cluster();
        http.send("PUT", "/api/access/policies/" + cluster, "{\"max_minutes\":480,\"two_approvals\":false,"
                + "\"deciders\":[\"" + anaId + "\"]}", "Cookie", root);
        AccessRequest bots = accessRequests.request(new Actor(new SubjectId(botId), Optional.of("cred-1"),
                Optional.empty()), Optional.empty(), new ClusterId(cluster), Scope.ALL, Tier.VIEW, 30, "vigilar");

        assertThat(json(http.get("/api/agents/requests", "Cookie", ana)).get("access_requests").findValuesAsText("id"))
                .contains(bots.id());
        HttpResponse<String> approved = http.send("POST", "/api/agents/requests/" + bots.id() + "/approve", null,
                "Cookie", ana);
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(eventTypes()).contains("agent.access_approved");
    }

    @Test
    void aPersonAsksFromATerminalWithTheirOwnCredential() throws Exception {
        String cluster = cluster();
        http.send("POST", "/api/grants", "{\"subject_id\":\"" + evaId + "\",\"cluster_id\":\"" + cluster
                + "\",\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", root);
        String token = json(http.send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie", eva)).get("token")
                .asText();

        HttpResponse<String> asked = http.send("POST", "/api/access/requests", "{\"cluster_id\":\"" + cluster
                + "\",\"tier\":\"edit\",\"scope\":\"*\",\"minutes\":30,\"reason\":\"desde kubectl\"}",
                "Authorization", "Bearer " + token);

        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(201);
        String id = json(asked).get("id").asText();
        assertThat(accessRequests.find(id).orElseThrow().actor().credentialId()).isPresent();
        assertThat(http.get("/api/access/requests/" + id, "Authorization", "Bearer " + token).statusCode())
                .isEqualTo(200);
        assertThat(http.send("POST", "/api/access/requests/" + id + "/cancel", null).statusCode()).isEqualTo(401);
        assertRefused(http.send("POST", "/api/access/requests", "{}", "Authorization", "Bearer klt_"
                + "A".repeat(43)), 401, "credencial desconocida");
        assertThat(http.send("POST", "/api/access/requests/" + id + "/approve", null, "Authorization",
                "Bearer " + token).statusCode()).as("deciding takes a session").isEqualTo(401);
        http.send("POST", "/api/access/requests/" + id + "/cancel", null, "Authorization", "Bearer " + token);
    }

    @Test
    void anEligibleGrantIsActivatedAtOnceOrAfterApproval() throws Exception {
        String cluster = cluster();
        HttpResponse<String> made = http.send("POST", "/api/access/eligible", "{\"subject_id\":\"" + evaId
                + "\",\"cluster_id\":\"" + cluster + "\",\"tier\":\"edit\",\"scope\":\"*\",\"max_minutes\":60,"
                + "\"needs_approval\":false}", "Cookie", root);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        String eligible = json(made).get("id").asText();
        assertThat(http.send("POST", "/api/access/eligible", "{}", "Cookie", eva).statusCode()).isEqualTo(403);
        assertRefused(http.send("POST", "/api/access/eligible", "{\"subject_id\":\"" + botId + "\",\"cluster_id\":\""
                + cluster + "\",\"tier\":\"edit\",\"scope\":\"*\",\"max_minutes\":60,\"needs_approval\":false}",
                "Cookie", root), 400, "un permiso elegible es de una persona");
        assertRefused(http.send("POST", "/api/access/eligible", "{\"subject_id\":\"" + evaId + "\",\"cluster_id\":\""
                + cluster + "\",\"tier\":\"edit\",\"scope\":\"*\",\"max_minutes\":60,\"needs_approval\":true}",
                "Cookie", root), 409, "ese permiso elegible ya existe");
        assertThat(json(http.get("/api/access/requests", "Cookie", eva)).get("eligible").findValuesAsText("id"))
                .contains(eligible);

        assertRefused(activate(eligible, ana, 30), 404, "");
        assertRefused(activate(eligible, eva, 61), 400, "la duración va de 15 a 60 minutos");
        HttpResponse<String> activated = activate(eligible, eva, 30);

        assertThat(activated.statusCode()).as(activated.body()).isEqualTo(201);
        assertThat(json(activated).get("status").asText()).isEqualTo("approved");
        assertThat(json(activated).get("origin").asText()).isEqualTo("eligible");
        assertThat(json(activated).get("access").asText()).isEqualTo("active");
        assertThat(grantsOf(evaId, cluster).findValuesAsText("tier")).contains("edit");
        assertRefused(activate(eligible, eva, 30), 409, "ya tienes un permiso que cubre ese acceso");

        String guarded = json(http.send("POST", "/api/access/eligible", "{\"subject_id\":\"" + evaId
                + "\",\"cluster_id\":\"" + cluster + "\",\"tier\":\"admin\",\"scope\":\"*\",\"max_minutes\":120,"
                + "\"needs_approval\":true}", "Cookie", root)).get("id").asText();
        JsonNode waiting = json(activate(guarded, eva, 120));
        assertThat(waiting.get("status").asText()).isEqualTo("pending");
        assertThat(json(decide(waiting.get("id").asText(), "deny", root, "{\"comment\":\"hoy no\"}")).get("status")
                .asText()).isEqualTo("denied");

        assertThat(http.send("DELETE", "/api/access/eligible/" + guarded, null, "Cookie", root).statusCode())
                .isEqualTo(204);
        assertRefused(activate(guarded, eva, 30), 409, "ese permiso elegible ya no está en vigor");
        assertThat(eventTypes()).contains("eligible_grant.create", "eligible_grant.revoke", "access_request.deny");
    }

    @Test
    void anUnansweredRequestExpiresWithItsEventOnce() throws Exception {
        String id = json(ask(eva, cluster(), "view", "*", 60, "nadie contesta")).get("id").asText();

        clock.advance(AccessRequests.LIFETIME.plusMinutes(1));
        signInAgain();
        klave.hooks().sweepAccessRequests(100);
        klave.hooks().sweepAccessRequests(100);

        assertThat(accessRequests.find(id).orElseThrow().status()).isEqualTo(AccessStatus.EXPIRED);
        long expiries = 0;
        for (JsonNode event : json(http.get("/api/control-events?type=access_request.expire", "Cookie", root))
                .get("events")) {
            expiries += event.get("details").get("request").asText().equals(id) ? 1 : 0;
        }
        assertThat(expiries).isEqualTo(1);
    }

    private HttpResponse<String> activate(String eligible, String cookie, int minutes) {
        return http.send("POST", "/api/access/eligible/" + eligible + "/activate", "{\"minutes\":" + minutes
                + ",\"reason\":\"guardia\"}", "Cookie", cookie);
    }

    private static void assertRefused(HttpResponse<String> response, int status, String sentence) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(json(response).get("error").asText()).contains(sentence);
    }
}
