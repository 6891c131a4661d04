package dev.klave.oauth.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.cluster.ClusterId;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.oauth.session.IssuedTokens;
import dev.klave.oauth.session.OAuthRefusal;
import dev.klave.access.Permission;
import dev.klave.store.JdbiAgentSessionStore;
import dev.klave.store.JdbiAgentTokenStore;
import dev.klave.store.JdbiCredentialStore;
import dev.klave.store.JdbiSubjectStore;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingDatabase;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The secrets of an agent session (spec 3 §2, §4 "Agent login"): single-use codes bound to their
 * PKCE challenge, redirect_uri and client; rotating refresh tokens whose reuse ends the session;
 * revocation; access tokens that only {@code /mcp} knows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentTokensTest {
    private static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    private static final String CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    private static final String REDIRECT = "http://127.0.0.1:33418/callback";
    private static final String CLIENT = "https://client.example/meta.json";

    private final TestingClock clock = new TestingClock();
    private TestingDatabase fixture;
    private AgentTokens tokens;
    private JdbiAgentSessionStore sessions;
    private Subject ana;

    @BeforeAll
    void start() {
        fixture = TestingDatabase.sqlite();
        sessions = new JdbiAgentSessionStore(fixture.database());
        tokens = new AgentTokens(fixture.database(), sessions, new JdbiAgentTokenStore(fixture.database()),
                new SecretTokenGenerator(new SecureRandom()), clock);
        ana = Subject.newPerson(new Login("ana"), "Ana", Optional.empty(), false, false, clock.instant());
        new JdbiSubjectStore(fixture.database()).create(ana);
    }

    @AfterAll
    void stop() {
        fixture.close();
    }

    private AgentTokens.Consented consented() {
        return tokens.consent(ana.id(), CLIENT, List.of(new Permission(new ClusterId("prod-1"), Tier.EDIT,
                new Scope("team-a"))), true, "password", REDIRECT, CHALLENGE);
    }

    @Test
    void theRfc7636ExampleVerifierMatchesItsChallenge() {
        assertThat(AgentTokens.s256(VERIFIER)).isEqualTo(CHALLENGE);
    }

    @Test
    void aCodeBuysAnAccessAndARefreshTokenOnceOnly() throws Exception {
        AgentTokens.Consented consent = consented();

        IssuedTokens issued = tokens.exchange(consent.code(), VERIFIER, REDIRECT, CLIENT);

        assertThat(issued.accessToken()).startsWith("klt_");
        assertThat(issued.refreshToken()).startsWith("klr_");
        assertThat(issued.accessExpiresAt()).isEqualTo(clock.instant().plus(Duration.ofHours(1)));
        assertThat(tokens.sessionOf(issued.accessToken()).map(AgentSession::id)).contains(consent.session().id());
        assertThatThrownBy(() -> tokens.exchange(consent.code(), VERIFIER, REDIRECT, CLIENT))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("ya se usó");
        // The second use ended the session: the tokens the first one bought no longer admit.
        assertThat(tokens.sessionOf(issued.accessToken())).isEmpty();
        assertThat(sessions.findById(consent.session().id()).orElseThrow().endReason())
                .contains("código usado dos veces");
    }

    @Test
    void theVerifierTheRedirectUriAndTheClientMustBeTheAuthorizationsOwn() {
        assertThatThrownBy(() -> tokens.exchange(consented().code(), "x".repeat(43), REDIRECT, CLIENT))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("PKCE");
        assertThatThrownBy(() -> tokens.exchange(consented().code(), null, REDIRECT, CLIENT))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("PKCE");
        assertThatThrownBy(() -> tokens.exchange(consented().code(), VERIFIER, "http://127.0.0.1:1/other", CLIENT))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("redirect_uri");
        assertThatThrownBy(() -> tokens.exchange(consented().code(), VERIFIER, REDIRECT, "https://evil.example/m"))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("otro cliente");
        assertThatThrownBy(() -> tokens.exchange("not-a-code", VERIFIER, REDIRECT, CLIENT))
                .isInstanceOf(OAuthRefusal.class)
                .satisfies(refusal -> assertThat(((OAuthRefusal) refusal).error())
                        .isEqualTo(OAuthRefusal.Error.INVALID_GRANT));
    }

    /** The agent-safety review: a wrong verifier burned the code and ended the person's new session. */
    @Test
    void aCodeRefusedForItsVerifierClientOrRedirectIsNotSpentAndEndsNothing() throws Exception {
        AgentTokens.Consented consent = consented();

        assertThatThrownBy(() -> tokens.exchange(consent.code(), "y".repeat(43), REDIRECT, CLIENT))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("PKCE");
        assertThatThrownBy(() -> tokens.exchange(consent.code(), VERIFIER, REDIRECT, "https://evil.example/m"))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("otro cliente");
        assertThatThrownBy(() -> tokens.exchange(consent.code(), VERIFIER, "http://127.0.0.1:1/x", CLIENT))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("redirect_uri");
        IssuedTokens issued = tokens.exchange(consent.code(), VERIFIER, REDIRECT, CLIENT);

        assertThat(tokens.sessionOf(issued.accessToken())).isPresent();
        assertThat(sessions.findById(consent.session().id()).orElseThrow().endReason()).isEmpty();
    }

    @Test
    void aRefreshByAnotherClientIsRefusedWithoutSpendingTheTokenOrEndingTheSession() throws Exception {
        IssuedTokens first = tokens.exchange(consented().code(), VERIFIER, REDIRECT, CLIENT);

        assertThatThrownBy(() -> tokens.refresh(first.refreshToken(), "https://evil.example/m"))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("otro cliente");

        assertThat(tokens.sessionOf(first.accessToken())).isPresent();
        assertThat(tokens.sessionOf(tokens.refresh(first.refreshToken(), CLIENT).accessToken())).isPresent();
    }

    @Test
    void aCodeExpiresAfterTenMinutes() {
        AgentTokens.Consented consent = consented();
        clock.advance(Duration.ofMinutes(11));

        assertThatThrownBy(() -> tokens.exchange(consent.code(), VERIFIER, REDIRECT, CLIENT))
                .isInstanceOf(OAuthRefusal.class).hasMessageContaining("caducado");
    }

    @Test
    void aRefreshTokenRotatesAndAnOldOnePresentedAgainEndsTheSession() throws Exception {
        AgentTokens.Consented consent = consented();
        IssuedTokens first = tokens.exchange(consent.code(), VERIFIER, REDIRECT, CLIENT);

        IssuedTokens second = tokens.refresh(first.refreshToken(), CLIENT);

        assertThat(second.refreshToken()).isNotEqualTo(first.refreshToken());
        assertThat(tokens.sessionOf(second.accessToken())).isPresent();
        assertThatThrownBy(() -> tokens.refresh(first.refreshToken(), CLIENT)).isInstanceOf(OAuthRefusal.class);
        assertThat(tokens.sessionOf(second.accessToken())).isEmpty();
        assertThatThrownBy(() -> tokens.refresh(second.refreshToken(), CLIENT)).isInstanceOf(OAuthRefusal.class);
    }

    @Test
    void revokingAnyTokenEndsTheSessionAndAnUnknownOneChangesNothing() throws Exception {
        IssuedTokens issued = tokens.exchange(consented().code(), VERIFIER, REDIRECT, CLIENT);

        tokens.revoke("klr_unknown");
        assertThat(tokens.sessionOf(issued.accessToken())).isPresent();
        tokens.revoke(issued.refreshToken());

        assertThat(tokens.sessionOf(issued.accessToken())).isEmpty();
    }

    @Test
    void anAccessTokenExpiresAfterAnHourAndIsNoProxyCredential() throws Exception {
        IssuedTokens issued = tokens.exchange(consented().code(), VERIFIER, REDIRECT, CLIENT);

        assertThat(new JdbiCredentialStore(fixture.database()).findByTokenHash(SecretToken.sha256(
                issued.accessToken()))).isEmpty();
        clock.advance(Duration.ofMinutes(61));
        assertThat(tokens.sessionOf(issued.accessToken())).isEmpty();
    }
}
