package dev.klave.login.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.IdentityProvider;
import dev.klave.account.IssuedLink;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.account.Subject;
import dev.klave.config.ExtraCertificates;
import dev.klave.testing.SignInBrowser;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingOidcProvider;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every row of the first-sign-in table (spec 2 §5 rule 7) under each autolink policy, and the two
 * link failures of rule 8 the sign-in table does not reach: {@code already_linked} from the
 * account page and {@code link_gone} from a spent link.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OidcLinkingTableTest {
    private static final AtomicInteger N = new AtomicInteger();

    private final TestingClock clock = new TestingClock(Instant.now());
    private TestingOidcProvider provider;

    @BeforeAll
    void start() {
        provider = TestingOidcProvider.start();
    }

    @AfterAll
    void stop() {
        provider.close();
    }

    private TestingKlave klave(String policy) {
        return TestingKlave.startAtOwnAddress(clock, settings -> {
            provider.settings("example.com").forEach(settings::with);
            return settings.with("OIDC_AUTOLINK", policy).with("SERVICE_TRUSTED_PROXIES", "127.0.0.1/32");
        });
    }

    private SignInBrowser browser(TestingKlave klave) {
        int n = N.incrementAndGet();
        return new SignInBrowser(ExtraCertificates.tlsContext(Optional.of(ExtraCertificates.read(provider.caFile()))),
                klave.port(), "198.20." + (n / 250 % 250) + "." + (n % 250 + 1));
    }

    private static Subject person(TestingKlave klave, String email) {
        return klave.accounts().createPerson(new NewPerson(new Login("p-" + N.incrementAndGet()),
                Optional.empty(), Optional.of(email), false, false), Optional.empty()).subject();
    }

    private String signIn(TestingKlave klave, String email) {
        provider.nextSignIn("sub-" + N.incrementAndGet(), email);
        return browser(klave).signInWithOidc();
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "invited", "off"})
    void everyRowOfTheTableUnderEachPolicy(String policy) {
        try (TestingKlave klave = klave(policy)) {
            assertThat(signIn(klave, "none-" + N.incrementAndGet() + "@example.com")).as("none")
                    .isEqualTo("/login?error=unknown_account");

            String two = "two-" + N.incrementAndGet() + "@example.com";
            person(klave, two);
            person(klave, two);
            assertThat(signIn(klave, two)).as("two or more enabled").isEqualTo("/login?error=ambiguous_account");

            String disabled = "off-" + N.incrementAndGet() + "@example.com";
            Subject off = person(klave, disabled);
            klave.hooks().lifecycle().disable(off.id(), Optional.empty(), Optional.empty());
            assertThat(signIn(klave, disabled)).as("only disabled").isEqualTo("/login?error=disabled");

            String one = "one-" + N.incrementAndGet() + "@example.com";
            Subject found = person(klave, one);
            String expected = policy.equals("off") ? "/login?error=unknown_account" : "/";
            assertThat(signIn(klave, one)).as("one enabled, never signed in, invitation live").isEqualTo(expected);
            assertThat(klave.identities().findFor(found.id(), IdentityProvider.OIDC).isPresent())
                    .isEqualTo(!policy.equals("off"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "invited", "off"})
    void anAccountAlreadySignedInWithNoLiveLinkIsLinkedOnlyUnderAll(String policy) {
        try (TestingKlave klave = klave(policy)) {
            String email = "veteran-" + N.incrementAndGet() + "@example.com";
            Subject veteran = person(klave, email);
            klave.hooks().openSession(veteran);
            klave.klave().database().withHandle(handle -> handle.execute(
                    "UPDATE link_tokens SET revoked_at = 1 WHERE subject_id = ?", veteran.id().value()));

            assertThat(signIn(klave, email)).isEqualTo(policy.equals("all") ? "/" : "/login?error=unknown_account");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "off"})
    void aSpentLinkIsLinkGoneAndAnAccountWithAnIdentityIsAlreadyLinked(String policy) {
        try (TestingKlave klave = klave(policy)) {
            String login = "spent-" + N.incrementAndGet();
            IssuedLink invitation = klave.accounts().createPerson(new NewPerson(new Login(login),
                    Optional.empty(), Optional.of(login + "@example.com"), false, false), Optional.empty());
            SignInBrowser browser = browser(klave);
            HttpResponse<String> started = browser.send("POST", "/api/auth/oidc/link",
                    "{\"token\":\"" + TestingPeople.tokenOf(invitation.link()) + "\"}");
            klave.klave().database().withHandle(handle -> handle.execute(
                    "UPDATE link_tokens SET revoked_at = 1 WHERE subject_id = ?", invitation.subject().id().value()));
            provider.nextSignIn("sub-" + login, login + "@example.com");
            assertThat(browser.follow(urlOf(started))).isEqualTo("/login?error=link_gone");

            Subject own = invitation.subject();
            SignInBrowser signedIn = browser(klave);
            signedIn.set("service_session", klave.hooks().openSession(own).cookieValue(), "/");
            HttpResponse<String> linking = signedIn.send("POST", "/api/me/oidc/link", "");
            klave.identities().link(new dev.klave.account.ExternalIdentity(own.id(),
                    dev.klave.account.ExternalIdentity.Key.oidc(provider.issuer(), "sub", "linked-meanwhile"),
                    Optional.empty(), Optional.empty(), Instant.now()));
            provider.nextSignIn("another-" + login, login + "@example.com");
            assertThat(signedIn.follow(urlOf(linking))).isEqualTo("/mi-cuenta?error=already_linked");
        }
    }

    private static String urlOf(HttpResponse<String> response) {
        String body = response.body();
        int start = body.indexOf("\"url\":\"") + 7;
        return body.substring(start, body.indexOf('"', start)).replace("\\u0026", "&");
    }
}
