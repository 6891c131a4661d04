package dev.klave.agent;

import static dev.klave.agent.McpClient.args;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.messages.Message;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingAgentLogin;
import dev.klave.testing.TestingAgents;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A delegated agent at {@code /mcp} (spec 3 §1 1, §5; issue 31 item 5): it acts as its person with
 * the permissions chosen on the consent page — only those the person still holds — its writes wait
 * for that person when chosen, its access requests stay within the person's own permissions and
 * go to the person, and whatever ends the session or the person's access ends it at {@code /mcp}.
 * Its access token is no credential at the proxy.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpDelegatedTest {
    private static final String EDIT_TEAM_A = "[{\"cluster\":\"prod-1\",\"role\":\"edit\",\"scope\":\"team-a\"}]";

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private String admin;

    @BeforeAll
    void start() {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_AGENT_APPROVAL_WAIT", "0s"));
        http = klave.http();
        for (String namespace : new String[] {"team-a", "team-b"}) {
            cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + namespace
                    + "\n  labels:\n    pod-security.kubernetes.io/enforce: baseline\n");
        }
        admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        TestingAgents.webDeployment(cluster);
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    /** A person with edit on team-a and view on team-b, their bindings in the cluster. */
    private record Person(String login, String id, String cookie) {}

    private Person person(String login) {
        String cookie = TestingPeople.signUp(klave, login, false);
        String id = read(http.get("/api/me", "Cookie", cookie)).path("id").asText();
        grant(id, "edit", "team-a");
        grant(id, "view", "team-b");
        Eventually.until("the person's bindings and impersonation", Duration.ofSeconds(10),
                () -> cluster.objects().get("rolebindings", "team-a", "klave-edit").isPresent()
                        && cluster.objects().get("rolebindings", "team-b", "klave-view").isPresent()
                        && cluster.objects().get("clusterroles", null, "klave-impersonation")
                                .map(role -> role.toString().contains("user:" + login)).orElse(false));
        return new Person(login, id, cookie);
    }

    private String grant(String subjectId, String tier, String scope) {
        HttpResponse<String> created = http.send("POST", "/api/grants", "{\"subject_id\":\"" + subjectId
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"" + tier + "\",\"scope\":\"" + scope + "\"}", "Cookie",
                admin);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return read(created).path("id").asText();
    }

    private McpClient agentOf(Person person, boolean writesNeedApproval) {
        return new McpClient(http, TestingAgentLogin.login(klave, person.cookie(), EDIT_TEAM_A, writesNeedApproval)
                .accessToken());
    }

    private static ObjectNode pods(String namespace) {
        return args("cluster", "prod-1", "kind", "pods", "namespace", namespace);
    }

    @Test
    void whoamiShowsThePersonTheSessionItsExpiryAndOnlyTheChosenPermissions() {
        Person ana = person("ana");
        McpClient agent = agentOf(ana, true);

        McpClient.Answer whoami = agent.call("whoami", args());

        JsonNode out = whoami.result().path("structuredContent");
        assertThat(out.path("mode").asText()).isEqualTo("delegated");
        assertThat(out.path("identity").asText()).isEqualTo("user:ana");
        assertThat(out.path("acting_for").asText()).isEqualTo("ana");
        assertThat(out.path("session").asText()).startsWith("s_");
        assertThat(out.path("session_expires_at").asText()).isNotEmpty();
        assertThat(out.path("writes_need_approval").asBoolean()).isTrue();
        assertThat(out.path("permissions").toString()).contains("\"role\":\"edit\"", "\"scope\":\"team-a\"")
                .doesNotContain("team-b");
        assertThat(whoami.text()).contains("delegated agent of ana");
    }

    @Test
    void theToolsActAsThePersonWithTheChosenPermissionsOnlyAndEachCallIsAuditedWithTheSession() {
        Person bea = person("bea");
        McpClient agent = agentOf(bea, false);
        String session = agent.call("whoami", args()).result().path("structuredContent").path("session").asText();

        McpClient.Answer chosen = agent.call("list_resources", pods("team-a"));
        McpClient.Answer notChosen = agent.call("list_resources", pods("team-b"));

        assertThat(chosen.isError()).as(chosen.text()).isFalse();
        // bea may read team-b herself, but did not give it: the cluster sees only the edit group of team-a.
        assertThat(notChosen.isError()).isTrue();
        assertThat(notChosen.text()).startsWith("403 Forbidden");
        JsonNode rows = read(http.get("/api/audit?credential=" + session, "Cookie", admin)).path("events");
        assertThat(rows.size()).isEqualTo(2);
        for (JsonNode row : rows) {
            assertThat(row.path("subject").asText()).isEqualTo("bea");
            assertThat(row.path("session").asText()).isEqualTo(session);
            assertThat(row.path("tool").asText()).isEqualTo("list_resources");
        }
        // Impersonated as bea, with the group of the permission she chose and no other.
        assertThat(cluster.requests()).filteredOn(request -> request.path().contains("/namespaces/team-b/pods")
                && String.valueOf(request.headers().get("impersonate-user")).equals("[user:bea]"))
                .isNotEmpty().allSatisfy(request -> assertThat(request.headers().get("impersonate-group"))
                        .containsExactly("service:edit:team-a"));
    }

    @Test
    void theAccessTokenIsNoCredentialAtTheProxy() {
        Person cai = person("cai");
        TestingAgentLogin.Tokens tokens = TestingAgentLogin.login(klave, cai.cookie(), EDIT_TEAM_A, false);

        HttpResponse<String> proxied = http.get("/clusters/prod-1/api/v1/namespaces/team-a/pods", "Authorization",
                "Bearer " + tokens.accessToken());

        assertThat(proxied.statusCode()).isEqualTo(401);
        assertThat(new McpClient(http, tokens.accessToken()).call("whoami", args()).isError()).isFalse();
    }

    @Test
    void revokingTheTokenEndsTheSessionAtMcpAndSoDoesARefreshTokenUsedTwice() {
        Person dan = person("dan");
        TestingAgentLogin.Tokens revoked = TestingAgentLogin.login(klave, dan.cookie(), EDIT_TEAM_A, false);
        TestingAgentLogin.Tokens replayed = TestingAgentLogin.login(klave, dan.cookie(), EDIT_TEAM_A, false);

        HttpResponse<String> revoke = http.send("POST", "/oauth/revoke", "token=" + revoked.refreshToken(),
                "Content-Type", "application/x-www-form-urlencoded");
        assertThat(TestingAgentLogin.refresh(klave, replayed).statusCode()).isEqualTo(200);
        assertThat(TestingAgentLogin.refresh(klave, replayed).statusCode()).isEqualTo(400);

        assertThat(revoke.statusCode()).isEqualTo(200);
        assertThat(new McpClient(http, revoked.accessToken()).call("whoami", args()).status()).isEqualTo(401);
        assertThat(new McpClient(http, replayed.accessToken()).call("whoami", args()).status()).isEqualTo(401);
    }

    @Test
    void aRefreshedAccessTokenWorksAndTheSessionStaysTheSame() {
        Person eva = person("eva");
        TestingAgentLogin.Tokens tokens = TestingAgentLogin.login(klave, eva.cookie(), EDIT_TEAM_A, false);
        String before = new McpClient(http, tokens.accessToken()).call("whoami", args()).result()
                .path("structuredContent").path("session").asText();

        JsonNode refreshed = read(TestingAgentLogin.refresh(klave, tokens));
        McpClient.Answer after = new McpClient(http, refreshed.path("access_token").asText()).call("whoami", args());

        assertThat(after.result().path("structuredContent").path("session").asText()).isEqualTo(before);
    }

    @Test
    void thePersonsDisableEndsTheirAgentAtMcp() {
        Person fay = person("fay");
        McpClient agent = agentOf(fay, false);
        assertThat(agent.call("whoami", args()).isError()).isFalse();

        HttpResponse<String> disabled = http.send("POST", "/api/subjects/" + fay.id() + "/disable", "{}", "Cookie",
                admin);

        assertThat(disabled.statusCode()).as(disabled.body()).isIn(200, 204);
        assertThat(agent.call("whoami", args()).status()).isEqualTo(401);
    }

    @Test
    void aGrantThatEndsTakesItsPermissionFromTheAgentAtTheNextCall() {
        Person gus = person("gus");
        String extra = grant(gus.id(), "admin", "team-b");
        McpClient agent = new McpClient(http, TestingAgentLogin.login(klave, gus.cookie(), "[{\"cluster\":"
                + "\"prod-1\",\"role\":\"admin\",\"scope\":\"team-b\"}]", false).accessToken());
        Eventually.until("the admin binding of team-b", Duration.ofSeconds(10),
                () -> cluster.objects().get("rolebindings", "team-b", "klave-admin").isPresent());
        assertThat(agent.call("list_resources", pods("team-b")).isError()).isFalse();

        assertThat(http.send("DELETE", "/api/grants/" + extra, null, "Cookie", admin).statusCode()).isIn(200, 204);
        McpClient.Answer after = agent.call("list_resources", pods("team-b"));

        assertThat(after.isError()).isTrue();
        assertThat(agent.call("whoami", args()).result().path("structuredContent").path("permissions").size())
                .isZero();
    }

    @Test
    void aWriteWaitsForThePersonWhoDecidesItAndNoAdministratorDoes() {
        Person hal = person("hal");
        McpClient agent = agentOf(hal, true);
        ObjectNode scale = args("cluster", "prod-1", "kind", "deployment", "namespace", "team-a", "name", "web");
        scale.put("replicas", 3);

        McpClient.Answer held = agent.call("scale", scale);

        assertThat(held.text()).startsWith("agent.approval_pending: ");
        String id = held.result().path("structuredContent").path("params").path("id").asText();
        assertThat(http.get("/api/agents/requests/" + id, "Cookie", admin).statusCode()).isEqualTo(404);
        HttpResponse<String> approved = http.send("POST", "/api/agents/requests/" + id + "/approve", "{}", "Cookie",
                hal.cookie());
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        scale.put("approval_id", id);
        McpClient.Answer done = agent.call("scale", scale);
        assertThat(done.isError()).as(done.text()).isFalse();
        assertThat(done.text()).startsWith("approved by hal at ");
    }

    @Test
    void accessRequestsStayWithinThePersonsOwnAndThePersonDecidesThem() {
        Person ivy = person("ivy");
        McpClient agent = agentOf(ivy, false);
        ObjectNode beyond = args("cluster", "prod-1", "namespace", "team-a", "role", "admin", "reason", "r");
        beyond.put("minutes", 30);
        ObjectNode clusterAdmin = args("cluster", "prod-1", "namespace", "*", "role", "cluster-admin", "reason", "r");
        clusterAdmin.put("minutes", 30);
        ObjectNode own = args("cluster", "prod-1", "namespace", "team-b", "role", "view", "reason", "read logs");
        own.put("minutes", 30);

        McpClient.Answer tooMuch = agent.call("request_access", beyond);
        McpClient.Answer never = agent.call("request_access", clusterAdmin);
        McpClient.Answer asked = agent.call("request_access", own);

        assertThat(tooMuch.text()).startsWith("agent.access_beyond_ceiling: ");
        assertThat(never.text()).startsWith("agent.access_beyond_ceiling: ");
        assertThat(asked.isError()).as(asked.text()).isFalse();
        String id = asked.result().path("structuredContent").path("id").asText();
        assertThat(http.get("/api/agents/requests/" + id, "Cookie", admin).statusCode()).isEqualTo(404);
        HttpResponse<String> approved = http.send("POST", "/api/agents/requests/" + id + "/approve", "{}", "Cookie",
                ivy.cookie());
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        McpClient.Answer readable = agent.call("list_resources", pods("team-b"));
        assertThat(readable.isError()).as(readable.text()).isFalse();
        // Through ivy's own view grant on team-b (no second grant is made), for the 30 minutes approved only.
        JsonNode teamB = null;
        for (JsonNode permission : agent.call("whoami", args()).result().path("structuredContent")
                .path("permissions")) {
            teamB = permission.path("scope").asText().equals("team-b") ? permission : teamB;
        }
        assertThat(teamB).isNotNull();
        assertThat(teamB.path("expires_at").isTextual()).isTrue();
        assertThat(read(http.get("/api/grants?subject=" + ivy.id(), "Cookie", admin)).findValuesAsText("scope"))
                .containsExactlyInAnyOrder("team-a", "team-b");
    }

    private static final String VIEW_TEAM_B = "[{\"cluster\":\"prod-1\",\"role\":\"view\",\"scope\":\"team-b\"}]";

    private String askAccess(McpClient agent, String role, String namespace, int minutes) {
        ObjectNode ask = args("cluster", "prod-1", "namespace", namespace, "role", role, "reason", "need it");
        ask.put("minutes", minutes);
        McpClient.Answer asked = agent.call("request_access", ask);
        assertThat(asked.isError()).as(asked.text()).isFalse();
        return asked.result().path("structuredContent").path("id").asText();
    }

    private JsonNode grantsOf(Person person) {
        return read(http.get("/api/grants?subject=" + person.id(), "Cookie", admin));
    }

    private String grantIn(Person person, String scope) {
        for (JsonNode grant : grantsOf(person)) {
            if (grant.path("scope").asText().equals(scope)) {
                return grant.path("id").asText();
            }
        }
        throw new AssertionError("no grant of " + person.login() + " in " + scope);
    }

    /** The attack of the agent-safety review: approving re-granted a person whose grant was revoked. */
    @Test
    void approvingItsAgentsRequestAfterTheGrantWasRevokedGrantsThePersonNothing() {
        Person bob = person("bob");
        McpClient agent = new McpClient(http, TestingAgentLogin.login(klave, bob.cookie(), VIEW_TEAM_B, false)
                .accessToken());
        String id = askAccess(agent, "edit", "team-a", 480);
        String editTeamA = grantIn(bob, "team-a");
        assertThat(http.send("DELETE", "/api/grants/" + editTeamA, null, "Cookie", admin).statusCode()).isIn(200, 204);

        HttpResponse<String> approved = http.send("POST", "/api/agents/requests/" + id + "/approve", "{}", "Cookie",
                bob.cookie());

        assertThat(approved.statusCode()).isEqualTo(409);
        assertThat(read(approved).path("error").asText()).isEqualTo(Message.REQUEST_NOT_HELD.text());
        assertThat(grantsOf(bob).findValuesAsText("scope")).containsExactly("team-b");
        assertThat(agent.call("list_resources", pods("team-a")).isError()).isTrue();
    }

    @Test
    void anApprovedRequestLendsTheSessionTheRoleThroughTheGrantThatCoversItAndGrantsNothing() {
        Person cyd = person("cyd");
        McpClient agent = new McpClient(http, TestingAgentLogin.login(klave, cyd.cookie(), VIEW_TEAM_B, false)
                .accessToken());
        // view on team-a: covered by cyd's edit there, carried by no grant of anyone's.
        String id = askAccess(agent, "view", "team-a", 30);
        assertThat(agent.call("list_resources", pods("team-a")).isError()).isTrue();

        HttpResponse<String> approved = http.send("POST", "/api/agents/requests/" + id + "/approve", "{}", "Cookie",
                cyd.cookie());

        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        assertThat(grantsOf(cyd).findValuesAsText("id")).hasSize(2);
        Eventually.until("the lent role's binding", Duration.ofSeconds(10),
                () -> cluster.objects().get("rolebindings", "team-a", "klave-view").isPresent());
        McpClient.Answer read = agent.call("list_resources", pods("team-a"));
        assertThat(read.isError()).as(read.text()).isFalse();
        ObjectNode scale = args("cluster", "prod-1", "kind", "deployment", "namespace", "team-a", "name", "web");
        scale.put("replicas", 4);
        McpClient.Answer write = agent.call("scale", scale);
        assertThat(write.isError()).isTrue();
        assertThat(write.text()).startsWith("403");
        JsonNode lent = null;
        for (JsonNode permission : agent.call("whoami", args()).result().path("structuredContent")
                .path("permissions")) {
            lent = permission.path("scope").asText().equals("team-a") ? permission : lent;
        }
        assertThat(lent).isNotNull();
        assertThat(lent.path("role").asText()).isEqualTo("view");
        assertThat(java.time.Instant.parse(lent.path("expires_at").asText()))
                .isBefore(java.time.Instant.parse("2026-11-25T10:00:00Z").plus(Duration.ofMinutes(31)));

        String editTeamA = grantIn(cyd, "team-a");
        assertThat(http.send("DELETE", "/api/grants/" + editTeamA, null, "Cookie", admin).statusCode()).isIn(200, 204);
        assertThat(agent.call("list_resources", pods("team-a")).isError()).as("at every call, not only at approval")
                .isTrue();
    }

    @Test
    void anApprovalNeverOutlastsTheGrantThatLendsIt() {
        Person dee = person("dee");
        java.time.Instant soon = java.time.Instant.parse("2026-11-25T10:00:00Z").plus(Duration.ofMinutes(10)).truncatedTo(
                java.time.temporal.ChronoUnit.SECONDS);
        HttpResponse<String> shortGrant = http.send("POST", "/api/grants", "{\"subject_id\":\"" + dee.id()
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"admin\",\"scope\":\"team-b\",\"expires_at\":\"" + soon
                + "\"}", "Cookie", admin);
        assertThat(shortGrant.statusCode()).as(shortGrant.body()).isEqualTo(201);
        McpClient agent = new McpClient(http, TestingAgentLogin.login(klave, dee.cookie(), VIEW_TEAM_B, false)
                .accessToken());
        String id = askAccess(agent, "admin", "team-b", 480);

        HttpResponse<String> approved = http.send("POST", "/api/agents/requests/" + id + "/approve", "{}", "Cookie",
                dee.cookie());

        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        JsonNode request = read(approved);
        assertThat(java.time.Instant.parse(request.path("grant_expires_at").asText())).isEqualTo(soon);
        assertThat(grantsOf(dee).findValuesAsText("id")).hasSize(3);
    }

    @Test
    void aToolCallInFlightIsCutWithinTenSecondsOfItsSessionsRevocation() throws Exception {
        Person kim = person("kim");
        TestingAgentLogin.Tokens tokens = TestingAgentLogin.login(klave, kim.cookie(), EDIT_TEAM_A, false);
        McpClient agent = new McpClient(http, tokens.accessToken());
        assertThat(agent.call("list_resources", pods("team-a")).isError()).isFalse();
        int before = klave.hooks().openCalls().size();
        cluster.slow(Duration.ofSeconds(25));
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletableFuture<McpClient.Answer> waiting = CompletableFuture.supplyAsync(
                    () -> agent.call("list_resources", pods("team-a")), threads);
            Eventually.until("the call held open", Duration.ofSeconds(5),
                    () -> klave.hooks().openCalls().size() > before);

            long revokedAt = System.nanoTime();
            http.send("POST", "/oauth/revoke", "token=" + tokens.accessToken(), "Content-Type",
                    "application/x-www-form-urlencoded");
            McpClient.Answer cut = waiting.get(10, TimeUnit.SECONDS);

            assertThat(Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThan(Duration.ofSeconds(10));
            assertThat(cut.isError()).isTrue();
            assertThat(cut.text()).contains(Message.CREDENTIAL_NO_LONGER_VALID.text());
        } finally {
            cluster.healthy();
        }
    }

    private static JsonNode read(HttpResponse<String> response) {
        try {
            return McpClient.JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
