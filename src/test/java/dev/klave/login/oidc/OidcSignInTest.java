package dev.klave.login.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.IssuedLink;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.account.Subject;
import dev.klave.audit.ControlEvent;
import dev.klave.config.ExtraCertificates;
import dev.klave.testing.SignInBrowser;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingOidcProvider;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingSettings;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Sign-in through an OIDC provider (spec 2 §5, §7), walked as a browser walks it against a real
 * OIDC server over HTTPS with a private CA (trusted through {@code SSL_CERT_FILE}): every failure
 * code from a real callback, and the linking table under each autolink policy.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OidcSignInTest {
    private static final AtomicInteger ADDRESSES = new AtomicInteger();
    private static final AtomicInteger PEOPLE = new AtomicInteger();

    private final TestingClock clock = new TestingClock(Instant.now());
    private TestingOidcProvider provider;
    private SSLContext providerTls;
    private TestingKlave klave;

    @BeforeAll
    void start() {
        provider = TestingOidcProvider.start();
        providerTls = ExtraCertificates.tlsContext(Optional.of(ExtraCertificates.read(provider.caFile())));
        klave = startKlave(settings -> settings);
    }

    @AfterAll
    void stop() {
        klave.close();
        provider.close();
    }

    private TestingKlave startKlave(UnaryOperator<TestingSettings> more) {
        return TestingKlave.startAtOwnAddress(clock, settings -> {
            provider.settings("example.com").forEach(settings::with);
            return more.apply(settings.with("SERVICE_TRUSTED_PROXIES", "127.0.0.1/32"));
        });
    }

    private SignInBrowser browser(TestingKlave on) {
        int n = ADDRESSES.incrementAndGet();
        return new SignInBrowser(providerTls, on.port(), "198.18." + (n / 250 % 250) + "." + (n % 250 + 1));
    }

    private SignInBrowser browser() {
        return browser(klave);
    }

    private static String unique(String prefix) {
        return prefix + "-" + PEOPLE.incrementAndGet();
    }

    private static Subject person(TestingKlave on, String login, String email) {
        IssuedLink invitation = on.accounts().createPerson(new NewPerson(new Login(login),
                Optional.empty(), Optional.ofNullable(email), false, false), Optional.empty());
        return invitation.subject();
    }

    private static List<ControlEvent> events(TestingKlave on) {
        return on.events().page(1).events();
    }

    private static ControlEvent last(TestingKlave on, String type) {
        return events(on).stream().filter(event -> event.type().equals(type)).findFirst().orElseThrow();
    }

    private static long count(TestingKlave on, String type) {
        return events(on).stream().filter(event -> event.type().equals(type)).count();
    }

    private Optional<ExternalIdentity> identityOf(TestingKlave on, Subject subject) {
        return on.identities().findFor(subject.id(), IdentityProvider.OIDC);
    }

    @Test
    void aFirstSignInLinksTheOneAccountWithThatAddressAndSignsIn() {
        String login = unique("ana");
        Subject ana = person(klave, login, login + "@example.com");
        provider.nextSignIn("sub-" + login, Map.of("email", login.toUpperCase() + "@Example.com", "email_verified", true,
                "name", "Ana Pérez", "amr", List.of("pwd", "mfa")));
        SignInBrowser browser = browser();

        assertThat(browser.signInWithOidc()).isEqualTo("/");

        assertThat(browser.get("/api/me").body()).contains("\"login\":\"" + login + "\"");
        ExternalIdentity identity = identityOf(klave, ana).orElseThrow();
        assertThat(identity.key()).isEqualTo(ExternalIdentity.Key.oidc(provider.issuer(), "sub", "sub-" + login));
        ControlEvent linked = last(klave, "oidc.link");
        assertThat(linked.via()).contains("email");
        assertThat(linked.details()).containsEntry("invites_revoked", 1).containsEntry("subject", "sub-" + login)
                .containsEntry("issuer", provider.issuer());
        ControlEvent success = last(klave, "login.success");
        assertThat(success.via()).contains("oidc");
        assertThat(success.details()).containsEntry("amr", List.of("pwd", "mfa"));
        assertThat(klave.accounts().get(ana.id()).displayName()).as("took the provider's name")
                .isEqualTo("Ana Pérez");

        provider.nextSignIn("sub-" + login, login + "@example.com");
        assertThat(browser().signInWithOidc()).as("signed in again by the identity").isEqualTo("/");
    }

    @Test
    void aSignInStartedFromTheConsentPageLandsBackThereAndAForeignPageIsIgnored() {
        String login = unique("consent");
        person(klave, login, login + "@example.com");
        String consent = "/agents/authorize/eyJjIjoiYSJ9*c2ln";

        provider.nextSignIn("sub-" + login, login + "@example.com");
        assertThat(browser().follow("/api/auth/oidc/login?next=" + java.net.URLEncoder.encode(consent,
                java.nio.charset.StandardCharsets.UTF_8))).as("first sign-in, linked by e-mail").isEqualTo(consent);
        provider.nextSignIn("sub-" + login, login + "@example.com");
        assertThat(browser().follow("/api/auth/oidc/login?next=" + java.net.URLEncoder.encode(consent,
                java.nio.charset.StandardCharsets.UTF_8))).as("signed in by the identity").isEqualTo(consent);
        provider.nextSignIn("sub-" + login, login + "@example.com");
        assertThat(browser().follow("/api/auth/oidc/login?next=%2F%2Fevil.example")).isEqualTo("/");
    }

    @Test
    void noAccountWithTheAddressIsUnknownAccountAndNothingIsCreated() {
        int before = klave.accounts().list().size();
        provider.nextSignIn(unique("sub"), unique("nobody") + "@example.com");

        assertThat(browser().signInWithOidc()).isEqualTo("/login?error=unknown_account");
        assertThat(klave.accounts().list()).hasSize(before);
        ControlEvent failure = last(klave, "login.failure");
        assertThat(failure.via()).contains("oidc");
        assertThat(failure.reason()).contains("unknown_account");
        assertThat(failure.details()).containsKeys("email", "subject");
    }

    @Test
    void twoEnabledAccountsWithTheAddressAreAmbiguousAndTheEventListsThem() {
        String email = unique("twice") + "@example.com";
        String first = unique("first");
        String second = unique("second");
        person(klave, first, email);
        person(klave, second, email.toUpperCase());
        provider.nextSignIn(unique("sub"), email);

        assertThat(browser().signInWithOidc()).isEqualTo("/login?error=ambiguous_account");
        assertThat(last(klave, "login.failure").details().get("candidates")).isEqualTo(List.of(first, second));
    }

    @Test
    void onlyDisabledAccountsWithTheAddressAreDisabledAndDisabledOnesDoNotCount() {
        String email = unique("off") + "@example.com";
        Subject off = person(klave, unique("off"), email);
        klave.hooks().lifecycle().disable(off.id(), Optional.empty(), Optional.empty());
        provider.nextSignIn(unique("sub"), email);
        assertThat(browser().signInWithOidc()).isEqualTo("/login?error=disabled");

        Subject on = person(klave, unique("on"), email);
        provider.nextSignIn(unique("sub"), email);
        assertThat(browser().signInWithOidc()).as("the disabled one does not count").isEqualTo("/");
        assertThat(identityOf(klave, on)).isPresent();
    }

    @Test
    void anAddressTheProviderDoesNotVouchForIsEmailUnverified() {
        String login = unique("unverified");
        person(klave, login, login + "@example.com");
        provider.nextSignIn(unique("sub"), Map.of("email", login + "@example.com", "email_verified", false));

        assertThat(browser().signInWithOidc()).isEqualTo("/login?error=email_unverified");
    }

    @Test
    void noAddressInTheTokenNorInUserinfoIsNoEmail() {
        provider.nextSignIn(unique("sub"), Map.of("name", "Sin Correo"));

        assertThat(browser().signInWithOidc()).isEqualTo("/login?error=no_email");
    }

    /**
     * Spec 2 §5 rule 7: spaces are trimmed and the rest compared exactly. An address with other
     * whitespace or a control character is no usable e-mail: it links nobody.
     */
    @Test
    void anAddressWithAControlCharacterOrOtherWhitespaceIsNoEmailAndLinksNobody() {
        String lin = unique("lin");
        String kim = unique("kim");
        Subject linAccount = person(klave, lin, lin + "@example.com");
        Subject kimAccount = person(klave, kim, kim + "@example.com");

        for (String hostile : List.of(lin + "@example.com\u3000", "\u2003" + kim + "@example.com\u001f",
                "\t" + lin + "@example.com", lin + "@example.com\u0085")) {
            provider.nextSignIn(unique("sub"), hostile);
            assertThat(browser().signInWithOidc()).as(hostile).isEqualTo("/login?error=no_email");
            assertThat(last(klave, "login.failure").reason()).contains("no_email");
        }
        assertThat(identityOf(klave, linAccount)).isEmpty();
        assertThat(identityOf(klave, kimAccount)).isEmpty();

        provider.nextSignIn("sub-" + lin, "  " + lin + "@example.com ");
        assertThat(browser().signInWithOidc()).as("ASCII spaces are trimmed").isEqualTo("/");
        assertThat(identityOf(klave, linAccount)).isPresent();
    }

    @Test
    void anotherDomainIsDomainNotAllowed() {
        provider.nextSignIn(unique("sub"), unique("ana") + "@example.org");

        assertThat(browser().signInWithOidc()).isEqualTo("/login?error=domain_not_allowed");
    }

    @Test
    void domainsFoldOnlyAToZSoTheKelvinSignIsAnotherDomain() {
        try (TestingKlave kelvin = startKlave(settings -> settings.with("OIDC_ALLOWED_DOMAINS", "kelvin.example.com"))) {
            String login = unique("kay");
            person(kelvin, login, login + "@kelvin.example.com");

            provider.nextSignIn(unique("sub"), login + "@\u212Aelvin.example.com");
            assertThat(browser(kelvin).signInWithOidc()).isEqualTo("/login?error=domain_not_allowed");

            provider.nextSignIn(unique("sub"), login + "@KELVIN.Example.COM");
            assertThat(browser(kelvin).signInWithOidc()).as("A to Z fold").isEqualTo("/");
        }
    }

    @Test
    void aTokenWithoutTheSubjectClaimOrAlreadyExpiredIsToken() {
        try (TestingKlave employee = startKlave(settings -> settings.with("OIDC_SUBJECT_CLAIM", "employee_id"))) {
            provider.nextSignIn(unique("sub"), unique("ana") + "@example.com");
            assertThat(browser(employee).signInWithOidc()).as("no employee_id claim").isEqualTo("/login?error=token");
        }
        provider.nextSignIn(new DefaultOAuth2TokenCallback(TestingOidcProvider.ISSUER_ID, unique("sub"), "JWT",
                List.of(TestingOidcProvider.CLIENT_ID), Map.of("email", "x@example.com", "email_verified", true), -600));
        assertThat(browser().signInWithOidc()).as("expired ten minutes ago").isEqualTo("/login?error=token");
    }

    @Test
    void cancellingIsDeniedAndAnotherProviderErrorIsOidcWithItsCode() {
        SignInBrowser browser = browser();
        String state = stateOf(browser.get("/api/auth/oidc/login"));
        HttpResponse<String> denied = browser.get("/api/auth/oidc/callback?error=access_denied&state=" + state);
        assertThat(denied.headers().firstValue("Location")).contains("/login?error=denied");

        SignInBrowser other = browser();
        String otherState = stateOf(other.get("/api/auth/oidc/login"));
        HttpResponse<String> failed = other.get("/api/auth/oidc/callback?error=temporarily_unavailable&state="
                + otherState);
        assertThat(failed.headers().firstValue("Location")).contains("/login?error=oidc");
        assertThat(last(klave, "login.failure").details()).containsEntry("idp_error", "temporarily_unavailable");
    }

    @Test
    void withoutTheStateCookieTheCallbackIsStateAndNothingIsRecorded() {
        long before = count(klave, "login.failure");
        SignInBrowser browser = browser();
        String state = stateOf(browser.get("/api/auth/oidc/login"));
        browser.forget("service_oidc_state");

        HttpResponse<String> callback = browser.get("/api/auth/oidc/callback?code=x&state=" + state);

        assertThat(callback.headers().firstValue("Location")).contains("/login?error=state");
        assertThat(count(klave, "login.failure")).isEqualTo(before);
    }

    @Test
    void theLoginRouteSendsPkceStateNonceTheHostedDomainHintAndOnRequestTheAccountPicker() {
        HttpResponse<String> started = browser().get("/api/auth/oidc/login?prompt=select_account");
        String location = started.headers().firstValue("Location").orElseThrow();

        assertThat(location).startsWith(provider.issuer() + "/authorize?").contains("code_challenge_method=S256")
                .contains("code_challenge=").contains("nonce=").contains("state=").contains("hd=example.com")
                .contains("prompt=select_account").contains("client_id=" + TestingOidcProvider.CLIENT_ID)
                .contains("scope=openid+email+profile");
        assertThat(started.headers().firstValue("Set-Cookie").orElseThrow()).startsWith("service_oidc_state=")
                .contains("; Path=/api/auth/oidc/callback;").contains("; Max-Age=600");
    }

    @Test
    void anAccountLinkedToAnotherValueOfTheSameIssuerAndClaimIsIdentityMismatch() {
        String login = unique("mismatch");
        Subject subject = person(klave, login, login + "@example.com");
        klave.identities().link(new ExternalIdentity(subject.id(),
                ExternalIdentity.Key.oidc(provider.issuer(), "sub", "the-first-one"), Optional.empty(),
                Optional.of(login + "@example.com"), clock.instant()));
        provider.nextSignIn("a-second-one-" + login, login + "@example.com");

        assertThat(browser().signInWithOidc()).isEqualTo("/login?error=identity_mismatch");
        assertThat(identityOf(klave, subject).map(identity -> identity.key().value())).contains("the-first-one");
    }

    @Test
    void anIdentityOfAnEarlierIssuerIsReplacedAndTheEventSaysSo() {
        String login = unique("moved");
        Subject subject = person(klave, login, login + "@example.com");
        klave.identities().link(new ExternalIdentity(subject.id(),
                ExternalIdentity.Key.oidc("https://old-idp.example.com/", "sub", "old"), Optional.empty(),
                Optional.empty(), clock.instant()));
        provider.nextSignIn("new-" + login, login + "@example.com");

        assertThat(browser().signInWithOidc()).isEqualTo("/");
        assertThat(last(klave, "oidc.link").details()).containsEntry("replaced_issuer", "https://old-idp.example.com/");
        assertThat(identityOf(klave, subject).map(identity -> identity.key().issuer())).contains(provider.issuer());
    }

    @Test
    void aChangedAddressAtTheProviderIsRecordedAndTheAccountsOwnStays() {
        String login = unique("changed");
        Subject subject = person(klave, login, login + "@example.com");
        provider.nextSignIn("sub-" + login, login + "@example.com");
        browser().signInWithOidc();

        provider.nextSignIn("sub-" + login, "renamed-" + login + "@example.com");
        assertThat(browser().signInWithOidc()).isEqualTo("/");

        ControlEvent changed = last(klave, "oidc.email_changed");
        assertThat(changed.details()).containsEntry("from", login + "@example.com")
                .containsEntry("to", "renamed-" + login + "@example.com");
        assertThat(klave.accounts().get(subject.id()).email()).contains(login + "@example.com");
    }

    @Test
    void anInvitationLinksWhateverVerifiedAllowedAddressAndSaysWhenItDiffers() {
        String login = unique("invited");
        IssuedLink invitation = klave.accounts().createPerson(new NewPerson(new Login(login),
                Optional.empty(), Optional.of(login + "@example.com"), false, false), Optional.empty());
        provider.nextSignIn("sub-" + login, "someone-else-" + login + "@example.com");
        SignInBrowser browser = browser();
        HttpResponse<String> started = browser.send("POST", "/api/auth/oidc/link",
                "{\"token\":\"" + TestingPeople.tokenOf(invitation.link()) + "\"}");

        assertThat(browser.follow(urlOf(started))).isEqualTo("/");
        assertThat(last(klave, "link.complete").details()).containsEntry("email_mismatch", true);
        assertThat(identityOf(klave, invitation.subject())).isPresent();
    }

    @Test
    void anIdentityThatOpensAnotherAccountIsOidcTaken() {
        String owner = unique("owner");
        person(klave, owner, owner + "@example.com");
        provider.nextSignIn("sub-" + owner, owner + "@example.com");
        browser().signInWithOidc();
        String login = unique("second");
        IssuedLink invitation = klave.accounts().createPerson(new NewPerson(new Login(login),
                Optional.empty(), Optional.of(login + "@example.com"), false, false), Optional.empty());
        provider.nextSignIn("sub-" + owner, owner + "@example.com");
        SignInBrowser browser = browser();
        HttpResponse<String> started = browser.send("POST", "/api/auth/oidc/link",
                "{\"token\":\"" + TestingPeople.tokenOf(invitation.link()) + "\"}");

        assertThat(browser.follow(urlOf(started))).isEqualTo("/login?error=oidc_taken");
    }

    @Test
    void elevenSignInsFromOneAddressInAMinuteAreRateLimited() {
        String login = unique("busy");
        person(klave, login, login + "@example.com");
        SignInBrowser browser = browser();
        for (int i = 0; i < 10; i++) {
            provider.nextSignIn("sub-" + login, login + "@example.com");
            assertThat(browser.signInWithOidc()).isEqualTo("/");
        }
        provider.nextSignIn("sub-" + login, login + "@example.com");
        assertThat(browser.signInWithOidc()).isEqualTo("/login?error=rate_limited");
        clock.advance(Duration.ofMinutes(1));
    }

    @Test
    void anInternalErrorIsServerAndRecordsNothing() {
        String login = unique("internal");
        person(klave, login, login + "@example.com");
        provider.nextSignIn("sub-" + login, login + "@example.com");
        long before = count(klave, "login.failure");
        klave.klave().database().withHandle(handle -> handle.execute("ALTER TABLE sessions RENAME TO sessions_gone"));
        try {
            assertThat(browser().signInWithOidc()).isEqualTo("/login?error=server");
        } finally {
            klave.klave().database().withHandle(handle -> handle.execute("ALTER TABLE sessions_gone RENAME TO sessions"));
        }
        assertThat(count(klave, "login.failure")).isEqualTo(before);
    }

    @Test
    void withAutolinkOffNobodyIsLinkedByAddress() {
        try (TestingKlave off = startKlave(settings -> settings.with("OIDC_AUTOLINK", "off"))) {
            String login = unique("nolink");
            Subject subject = person(off, login, login + "@example.com");
            provider.nextSignIn("sub-" + login, login + "@example.com");

            assertThat(browser(off).signInWithOidc()).isEqualTo("/login?error=unknown_account");
            assertThat(identityOf(off, subject)).isEmpty();
        }
    }

    @Test
    void withAutolinkInvitedOnlyAccountsThatNeverSignedInOrHoldALiveLinkAreLinked() {
        try (TestingKlave invited = startKlave(settings -> settings.with("OIDC_AUTOLINK", "invited"))) {
            String fresh = unique("fresh");
            Subject newcomer = person(invited, fresh, fresh + "@example.com");
            provider.nextSignIn("sub-" + fresh, fresh + "@example.com");
            assertThat(browser(invited).signInWithOidc()).as("never signed in").isEqualTo("/");
            assertThat(identityOf(invited, newcomer)).isPresent();

            String veteran = unique("veteran");
            Subject old = person(invited, veteran, veteran + "@example.com");
            invited.hooks().openSession(old);
            invited.klave().database().withHandle(handle -> handle.execute(
                    "UPDATE link_tokens SET revoked_at = 1 WHERE subject_id = ?", old.id().value()));
            provider.nextSignIn("sub-" + veteran, veteran + "@example.com");
            assertThat(browser(invited).signInWithOidc()).as("signed in before, no live link")
                    .isEqualTo("/login?error=unknown_account");
        }
    }

    @Test
    void aProviderThatCannotBeReachedFailsAtTheButtonWithoutARow() {
        TestingOidcProvider down = TestingOidcProvider.start();
        java.util.Map<String, String> settings = down.settings("example.com");
        down.close();
        try (TestingKlave unreachable = TestingKlave.startAtOwnAddress(clock, base -> {
            settings.forEach(base::with);
            return base.with("SERVICE_TRUSTED_PROXIES", "127.0.0.1/32");
        })) {
            long before = count(unreachable, "login.failure");
            HttpResponse<String> started = browser(unreachable).get("/api/auth/oidc/login");

            assertThat(started.statusCode()).isEqualTo(302);
            assertThat(started.headers().firstValue("Location")).contains("/login?error=provider_unavailable");
            assertThat(count(unreachable, "login.failure")).isEqualTo(before);
        }
    }

    private static String stateOf(HttpResponse<String> started) {
        String location = started.headers().firstValue("Location").orElseThrow();
        int at = location.indexOf("state=") + 6;
        int end = location.indexOf('&', at);
        return location.substring(at, end < 0 ? location.length() : end);
    }

    private static String urlOf(HttpResponse<String> response) {
        String body = response.body();
        int start = body.indexOf("\"url\":\"") + 7;
        return body.substring(start, body.indexOf('"', start)).replace("\\u0026", "&");
    }

    @Test
    void aCallbackToAnotherHostThanTheBaseUrlsIsState() throws Exception {
        String login = unique("host");
        person(klave, login, login + "@example.com");
        provider.nextSignIn("sub-" + login, login + "@example.com");
        SignInBrowser browser = browser();
        String atProvider = browser.get("/api/auth/oidc/login").headers().firstValue("Location").orElseThrow();
        String callback = browser.get(atProvider).headers().firstValue("Location").orElseThrow();
        assertThat(callback).startsWith("http://127.0.0.1:" + klave.port() + "/api/auth/oidc/callback?");
        String otherHost = callback.replace("http://127.0.0.1:", "http://localhost:");
        long failures = count(klave, "login.failure");
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();

        HttpResponse<String> withoutCookie = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(otherHost)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(withoutCookie.headers().firstValue("Location")).contains("/login?error=state");
        assertThat(count(klave, "login.failure")).as("no valid state cookie: no row").isEqualTo(failures);

        HttpResponse<String> withCookie = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(otherHost)).header("Cookie", "service_oidc_state="
                + browser.cookie("service_oidc_state")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(withCookie.headers().firstValue("Location")).contains("/login?error=state");
        assertThat(count(klave, "login.failure")).isEqualTo(failures + 1);
        assertThat(last(klave, "login.failure").reason()).contains("state");
        assertThat(withCookie.headers().allValues("Set-Cookie")).as("no session on the other host")
                .noneMatch(cookie -> cookie.startsWith("service_session="));
        // The queued answer is taken at the code exchange: on the base URL's host, it is.
        assertThat(browser.follow(callback)).isEqualTo("/");
    }

    @Test
    void withOnlyOidcOnPasswordOperationsAreRefusedNamingTheProviderNotTheForge() {
        String login = unique("nopass");
        IssuedLink invitation = klave.accounts().createPerson(new NewPerson(new Login(login),
                Optional.empty(), Optional.of(login + "@example.com"), false, false), Optional.empty());
        String token = TestingPeople.tokenOf(invitation.link());
        String expected = "{\"error\":\"esta cuenta entra con Acme SSO: no usa contraseña\"}";

        HttpResponse<String> completed = klave.http().send("POST", "/api/auth/link/complete",
                "{\"token\":\"" + token + "\",\"password\":\"una-clave-muy-larga\"}");
        String session = "service_session=" + klave.hooks().openSession(invitation.subject())
                .cookieValue();
        HttpResponse<String> changed = klave.http().send("POST", "/api/me/password",
                "{\"current_password\":\"x\",\"new_password\":\"una-clave-muy-larga\"}", "Cookie", session);

        assertThat(completed.statusCode()).isEqualTo(403);
        assertThat(completed.body()).isEqualTo(expected);
        assertThat(changed.statusCode()).isEqualTo(403);
        assertThat(changed.body()).isEqualTo(expected);
    }

    @Test
    void aSignedInPersonLinksTheirOwnAccountAndAnAdministratorUnlinksIt() {
        String login = unique("own");
        Subject subject = person(klave, login, null);
        Subject root = klave.accounts().createPerson(new NewPerson(new Login(unique("root")),
                Optional.empty(), Optional.empty(), true, true), Optional.empty()).subject();
        String admin = "service_session=" + klave.hooks().openSession(root).cookieValue();
        SignInBrowser browser = browser();
        browser.set("service_session", klave.hooks().openSession(subject).cookieValue(), "/");
        provider.nextSignIn("sub-" + login, login + "@example.com");

        HttpResponse<String> started = browser.send("POST", "/api/me/oidc/link", "");
        assertThat(browser.follow(urlOf(started))).isEqualTo("/mi-cuenta?oidc=linked");
        assertThat(last(klave, "link.complete").details()).as("the account has no address of its own")
                .containsEntry("email_mismatch", true);
        assertThat(browser.get("/api/me").body()).contains("\"oidc\":{\"issuer\":\"" + provider.issuer() + "\"")
                .contains("\"subject\":\"sub-" + login + "\"");
        assertThat(browser.send("POST", "/api/me/oidc/link", "").statusCode()).as("already linked").isEqualTo(409);

        HttpResponse<String> unlinked = klave.http().send("DELETE", "/api/subjects/" + subject.id().value() + "/oidc",
                null, "Cookie", admin);
        assertThat(unlinked.statusCode()).isEqualTo(200);
        assertThat(unlinked.body()).contains("\"oidc\":null");
        assertThat(identityOf(klave, subject)).isEmpty();
        assertThat(browser.get("/api/me").statusCode()).as("sessions closed").isEqualTo(401);
    }

    @Test
    void eventDetailsStayListsAndBooleansInTheApi() {
        String email = unique("listed") + "@example.com";
        person(klave, unique("one"), email);
        person(klave, unique("two"), email);
        provider.nextSignIn(unique("sub"), email);
        browser().signInWithOidc();
        Subject root = klave.accounts().createPerson(new NewPerson(new Login(unique("auditor")),
                Optional.empty(), Optional.empty(), true, false), Optional.empty()).subject();
        String admin = "service_session=" + klave.hooks().openSession(root).cookieValue();

        String body = klave.http().get("/api/control-events", "Cookie", admin).body();

        assertThat(body).containsPattern("\"candidates\":\\[\"one-\\d+\",\"two-\\d+\"\\]");
    }

    @Test
    void theLastAdministratorAbleToSignInThroughOidcIsNotUnlinked() {
        try (TestingKlave alone = startKlave(settings -> settings)) {
            String login = unique("only");
            Subject root = alone.accounts().createPerson(new NewPerson(new Login(login),
                    Optional.empty(), Optional.of(login + "@example.com"), true, false), Optional.empty()).subject();
            provider.nextSignIn("sub-" + login, login + "@example.com");
            assertThat(browser(alone).signInWithOidc()).isEqualTo("/");
            String admin = "service_session=" + alone.hooks().openSession(root).cookieValue();

            HttpResponse<String> refused = alone.http().send("DELETE", "/api/subjects/" + root.id().value() + "/oidc",
                    null, "Cookie", admin);

            assertThat(refused.statusCode()).isEqualTo(409);
            assertThat(identityOf(alone, root)).isPresent();
        }
    }
}
