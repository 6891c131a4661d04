package dev.klave.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.ExternalIdentity;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.access.Permission;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Which account events end a person's agent sessions (spec 3 §4 "Agent login"; issue 31 item 5):
 * disabling the account, changing its password, and unlinking the identity a session was
 * consented with — each seen through the access token the session's agent holds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentSessionEndsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final String REDIRECT = "http://127.0.0.1:33418/callback";

    private TestingKlave klave;
    private TestingHttp http;
    private String admin;
    private AgentTokens tokens;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        tokens = klave.hooks().agentTokens();
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private SubjectId idOf(String cookie) throws Exception {
        return new SubjectId(JSON.readTree(http.get("/api/me", "Cookie", cookie).body()).path("id").asText());
    }

    /** A session the person consented through {@code via}, and its agent's access token. */
    private String agentOf(SubjectId person, String via) throws Exception {
        AgentTokens.Consented consent = tokens.consent(person, "https://client.example/meta.json",
                List.of(new Permission(new ClusterId("prod-1"), Tier.VIEW, Scope.ALL)), false, via, REDIRECT, CHALLENGE);
        return tokens.exchange(consent.code(), VERIFIER, REDIRECT, "https://client.example/meta.json").accessToken();
    }

    @Test
    void disablingThePersonEndsTheirAgentSessions() throws Exception {
        String ana = TestingPeople.signUp(klave, "ana", false);
        String agent = agentOf(idOf(ana), "password");

        HttpResponse<String> disabled = http.send("POST", "/api/subjects/" + idOf(ana).value() + "/disable", "{}",
                "Cookie", admin);

        assertThat(disabled.statusCode()).as(disabled.body()).isEqualTo(200);
        assertThat(tokens.sessionOf(agent)).isEmpty();
    }

    @Test
    void changingThePasswordEndsTheirAgentSessions() throws Exception {
        String bea = TestingPeople.signUp(klave, "bea", false);
        String agent = agentOf(idOf(bea), "password");
        assertThat(tokens.sessionOf(agent)).isPresent();

        HttpResponse<String> changed = http.send("POST", "/api/me/password", "{\"current_password\":\""
                + TestingPeople.PASSWORD + "\",\"new_password\":\"another horse battery staple\"}", "Cookie", bea);

        assertThat(changed.statusCode()).as(changed.body()).isLessThan(300);
        assertThat(tokens.sessionOf(agent)).isEmpty();
    }

    @Test
    void aResetLinkThatSetsANewPasswordEndsTheirAgentSessions() throws Exception {
        String dan = TestingPeople.signUp(klave, "dan", false);
        String agent = agentOf(idOf(dan), "password");
        String link = new com.fasterxml.jackson.databind.ObjectMapper().readTree(http.send("POST", "/api/subjects/"
                + idOf(dan).value() + "/reset-link", "{}", "Cookie", admin).body()).path("reset_link").asText();

        HttpResponse<String> completed = http.send("POST", "/api/auth/link/complete", "{\"token\":\""
                + TestingPeople.tokenOf(link) + "\",\"password\":\"yet another horse battery\"}");

        assertThat(completed.statusCode()).as(completed.body()).isEqualTo(200);
        assertThat(tokens.sessionOf(agent)).isEmpty();
    }

    @Test
    void unlinkingAnIdentityEndsTheSessionsConsentedThroughItOnly() throws Exception {
        String cai = TestingPeople.signUp(klave, "cai", false);
        SubjectId id = idOf(cai);
        klave.identities().link(new ExternalIdentity(id, ExternalIdentity.Key.forge(4242),
                Optional.empty(), Optional.empty(), Instant.now()));
        String throughForge = agentOf(id, "forge");
        String throughPassword = agentOf(id, "password");

        HttpResponse<String> unlinked = http.send("DELETE", "/api/subjects/" + id.value() + "/forge", null,
                "Cookie", admin);

        assertThat(unlinked.statusCode()).as(unlinked.body()).isEqualTo(200);
        assertThat(tokens.sessionOf(throughForge)).isEmpty();
        assertThat(tokens.sessionOf(throughPassword)).isPresent();
    }
}
