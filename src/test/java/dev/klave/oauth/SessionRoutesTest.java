package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.audit.ControlEvent;
import dev.klave.cluster.ClusterId;
import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.oauth.session.IssuedTokens;
import dev.klave.oauth.session.OAuthRefusal;
import dev.klave.access.Permission;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Agent sessions as people and administrators see and end them (issue 31 item 6): a person lists
 * their own with the client's name, the permissions chosen, the approval setting and when it was
 * last used, and ends one — its tokens stop working, an event says who ended it; someone else's
 * session does not exist for them; administrators list and end everyone's. Run on SQLite and on
 * PostgreSQL by the two subclasses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SessionRoutesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REDIRECT = "http://127.0.0.1:33418/callback";
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final String PUBLISHED = "https://tools.example.com/oauth/client.json";
    private static final AtomicInteger PEOPLE = new AtomicInteger();

    private final TestingClock clock = new TestingClock();
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private String clientId;

    protected abstract TestingKlave startKlave(TestingClock clock);

    @BeforeAll
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        klave = startKlave(clock);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        clientId = json(http.send("POST", "/oauth/register", "{\"redirect_uris\":[\"" + REDIRECT
                + "\"],\"client_name\":\"Claude Code\",\"client_uri\":\"https://claude.example\"}",
                "Content-Type", "application/json")).path("client_id").asText();
    }

    @AfterAll
    void stop() {
        klave.close();
        cluster.close();
    }

    private record Person(String cookie, SubjectId id) {}

    /** A person with view on the whole of prod-1. */
    private Person person(String prefix) {
        String cookie = TestingPeople.signUp(klave, prefix + "-" + PEOPLE.incrementAndGet(), false);
        SubjectId id = new SubjectId(json(http.get("/api/me", "Cookie", cookie)).path("id").asText());
        assertThat(http.send("POST", "/api/grants", "{\"subject_id\":\"" + id.value() + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin).statusCode()).isEqualTo(201);
        return new Person(cookie, id);
    }

    /** A session the person opened for the registered client, and its access token. */
    private Opened consent(Person person) {
        AgentTokens tokens = klave.hooks().agentTokens();
        AgentTokens.Consented consented = tokens.consent(person.id(), clientId,
                List.of(new Permission(new ClusterId("prod-1"), Tier.VIEW, new Scope("team-a"))), true, "password",
                REDIRECT, CHALLENGE);
        try {
            IssuedTokens issued = tokens.exchange(consented.code(), VERIFIER, REDIRECT, clientId);
            return new Opened(consented.session().id(), issued.accessToken());
        } catch (OAuthRefusal refusal) {
            throw new AssertionError(refusal);
        }
    }

    private record Opened(String id, String accessToken) {}

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode find(JsonNode list, String id) {
        for (JsonNode session : list) {
            if (session.path("id").asText().equals(id)) {
                return session;
            }
        }
        throw new AssertionError("no session " + id + " in " + list);
    }

    private static String path(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8);
    }

    private ControlEvent lastEnd() {
        return klave.events().page(1).events().stream()
                .filter(event -> event.type().equals("agent.session_end")).findFirst().orElseThrow();
    }

    @Test
    void aPersonSeesTheirSessionsWithClientPermissionsApprovalAndLastUse() {
        Person ana = person("ana");
        Opened opened = consent(ana);
        clock.advance(Duration.ofMinutes(3));
        assertThat(klave.hooks().agentTokens().sessionOf(opened.accessToken())).isPresent();

        HttpResponse<String> listed = http.get("/api/me/agent-sessions", "Cookie", ana.cookie());

        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        assertThat(json(listed)).hasSize(1);
        JsonNode session = find(json(listed), opened.id());
        assertThat(session.path("client").path("id").asText()).isEqualTo(clientId);
        assertThat(session.path("client").path("name").asText()).isEqualTo("Claude Code");
        assertThat(session.path("client").path("uri").asText()).isEqualTo("https://claude.example");
        assertThat(session.path("person").path("id").asText()).isEqualTo(ana.id().value());
        assertThat(session.path("permissions").toString())
                .isEqualTo("[{\"cluster\":\"prod-1\",\"role\":\"view\",\"scope\":\"team-a\"}]");
        assertThat(session.path("writes_need_approval").asBoolean()).isTrue();
        assertThat(session.path("state").asText()).isEqualTo("open");
        assertThat(session.path("created_at").isTextual()).isTrue();
        assertThat(session.path("expires_at").isTextual()).isTrue();
        assertThat(session.has("last_used_at")).isTrue();
        assertThat(session.path("ended_at").isNull()).isTrue();
    }

    @Test
    void endingOnesOwnSessionStopsItsTokensAndRecordsWhoEndedIt() {
        Person ana = person("ana");
        Opened opened = consent(ana);

        HttpResponse<String> ended = http.send("POST", "/api/me/agent-sessions/" + path(opened.id()) + "/end", "{}",
                "Cookie", ana.cookie());

        assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);
        assertThat(json(ended).path("state").asText()).isEqualTo("ended");
        assertThat(json(ended).path("end_reason").asText()).isEqualTo("terminada por la persona que la autorizó");
        AgentSession stored = klave.hooks().agentTokens().sessionOf(opened.accessToken()).orElse(null);
        assertThat(stored).as("the access token is refused once the session ended").isNull();
        ControlEvent event = lastEnd();
        assertThat(event.actor().map(ControlEvent.SubjectRef::id)).contains(ana.id().value());
        assertThat(event.target().map(ControlEvent.SubjectRef::id)).contains(ana.id().value());
        assertThat(event.details()).containsEntry("session", opened.id()).containsEntry("client", clientId);
        assertThat(find(json(http.get("/api/me/agent-sessions", "Cookie", ana.cookie())), opened.id())
                .path("state").asText()).isEqualTo("ended");
    }

    @Test
    void endingTwiceKeepsTheFirstEndAndItsReason() {
        Person ana = person("ana");
        Opened opened = consent(ana);
        JsonNode first = json(http.send("POST", "/api/agent-sessions/" + path(opened.id()) + "/end", "", "Cookie",
                admin));
        clock.advance(Duration.ofMinutes(1));

        JsonNode second = json(http.send("POST", "/api/me/agent-sessions/" + path(opened.id()) + "/end", "",
                "Cookie", ana.cookie()));

        assertThat(second.path("end_reason").asText()).isEqualTo("terminada por el administrador root");
        assertThat(second.path("ended_at").asText()).isEqualTo(first.path("ended_at").asText());
    }

    @Test
    void someoneElsesSessionDoesNotExistForAPerson() {
        Person ana = person("ana");
        Person bob = person("bob");
        Opened opened = consent(ana);

        HttpResponse<String> ended = http.send("POST", "/api/me/agent-sessions/" + path(opened.id()) + "/end", "{}",
                "Cookie", bob.cookie());

        assertThat(ended.statusCode()).isEqualTo(404);
        assertThat(json(http.get("/api/me/agent-sessions", "Cookie", bob.cookie()))).isEmpty();
        assertThat(klave.hooks().agentTokens().sessionOf(opened.accessToken())).isPresent();
        assertThat(http.send("POST", "/api/me/agent-sessions/s_nothing-here/end", "{}", "Cookie", bob.cookie())
                .statusCode()).isEqualTo(404);
    }

    @Test
    void administratorsListEveryonesSessionsAndEndThem() {
        Person ana = person("ana");
        Opened opened = consent(ana);

        JsonNode all = json(http.get("/api/agent-sessions", "Cookie", admin));
        JsonNode listed = find(all, opened.id());
        assertThat(listed.path("person").path("login").asText()).startsWith("ana-");
        assertThat(listed.path("client").path("name").asText()).isEqualTo("Claude Code");

        HttpResponse<String> ended = http.send("POST", "/api/agent-sessions/" + path(opened.id()) + "/end", "{}",
                "Cookie", admin);

        assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);
        assertThat(json(ended).path("end_reason").asText()).isEqualTo("terminada por el administrador root");
        assertThat(klave.hooks().agentTokens().sessionOf(opened.accessToken())).isEmpty();
        ControlEvent event = lastEnd();
        assertThat(event.actor().map(ControlEvent.SubjectRef::login)).contains("root");
        assertThat(event.target().map(ControlEvent.SubjectRef::id)).contains(ana.id().value());
    }

    @Test
    void theAdministratorsRoutesAreForAdministratorsOnly() {
        Person ana = person("ana");
        Opened opened = consent(ana);

        assertThat(http.get("/api/agent-sessions", "Cookie", ana.cookie()).statusCode()).isEqualTo(403);
        assertThat(http.send("POST", "/api/agent-sessions/" + path(opened.id()) + "/end", "{}", "Cookie",
                ana.cookie()).statusCode()).isEqualTo(403);
        assertThat(http.get("/api/me/agent-sessions").statusCode()).isEqualTo(401);
        assertThat(http.get("/api/agent-sessions").statusCode()).isEqualTo(401);
        assertThat(http.send("POST", "/api/me/agent-sessions/" + path(opened.id()) + "/end", "{\"why\":1}", "Cookie",
                ana.cookie()).statusCode()).as("a body carries nothing").isEqualTo(400);
        assertThat(klave.hooks().agentTokens().sessionOf(opened.accessToken())).isPresent();
    }

    @Test
    void aPublishedClientIsNamedByItsDocumentsHost() {
        Person ana = person("ana");
        AgentTokens.Consented consented = klave.hooks().agentTokens().consent(ana.id(), PUBLISHED,
                List.of(new Permission(new ClusterId("prod-1"), Tier.VIEW, Scope.ALL)), false, "password", REDIRECT,
                CHALLENGE);

        JsonNode session = find(json(http.get("/api/me/agent-sessions", "Cookie", ana.cookie())),
                consented.session().id());
        assertThat(session.path("client").path("id").asText()).isEqualTo(PUBLISHED);
        assertThat(session.path("client").path("name").asText()).isEqualTo("tools.example.com");
        assertThat(session.path("writes_need_approval").asBoolean()).isFalse();
    }
}
