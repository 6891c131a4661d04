package dev.klave.login.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.account.Subject;
import dev.klave.config.ExtraCertificates;
import dev.klave.testing.Eventually;
import dev.klave.testing.SignInBrowser;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingBodies;
import dev.klave.testing.TestingOddProvider;
import dev.klave.testing.TestingSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The providers spec 2 §5 "Provider behaviours" names, each from a real callback: HS256 tokens, no
 * key id, a hosted-domain provider, tenant-style claims, a trailing-slash issuer, the e-mail only
 * in userinfo, a public client, and discovery down at start then up.
 */
class OidcProvidersTest {
    private static final AtomicInteger ADDRESSES = new AtomicInteger();

    private final TestingClock clock = new TestingClock(Instant.now());

    private TestingKlave klaveFor(TestingOddProvider provider, boolean publicClient,
            UnaryOperator<TestingSettings> more) {
        return TestingKlave.startAtOwnAddress(clock, settings -> {
            provider.settings(publicClient).forEach(settings::with);
            return more.apply(settings.with("SERVICE_TRUSTED_PROXIES", "127.0.0.1/32"));
        });
    }

    private static String signIn(TestingOddProvider provider, TestingKlave klave) {
        return browserFor(provider, klave).signInWithOidc();
    }

    /** A browser at an address of its own, trusting the provider's CA. */
    private static SignInBrowser browserFor(TestingOddProvider provider, TestingKlave klave) {
        int n = ADDRESSES.incrementAndGet();
        return new SignInBrowser(ExtraCertificates.tlsContext(Optional.of(ExtraCertificates.read(provider.caFile()))),
                klave.port(), "198.19." + (n / 250 % 250) + "." + (n % 250 + 1));
    }

    private static Subject person(TestingKlave klave, String login) {
        return klave.accounts().createPerson(new NewPerson(new Login(login), Optional.empty(),
                Optional.of(login + "@example.com"), false, false), Optional.empty()).subject();
    }

    private static Map<String, Object> verified(String sub, String email) {
        return Map.of("sub", sub, "email", email, "email_verified", true);
    }

    @Test
    void anHs256TokenIsRefusedWithToken() {
        try (TestingOddProvider provider = TestingOddProvider.start("/hs", 1);
                TestingKlave klave = klaveFor(provider, false, settings -> settings)) {
            person(klave, "ana");
            provider.signing(TestingOddProvider.Signing.HS256);
            provider.nextSignIn(verified("s-ana", "ana@example.com"), Map.of());

            assertThat(signIn(provider, klave)).isEqualTo("/login?error=token");
        }
    }

    @Test
    void aTokenNotValidYetBeyondTheMinutesSkewIsToken() {
        try (TestingOddProvider provider = TestingOddProvider.start("/nbf", 1);
                TestingKlave klave = klaveFor(provider, false, settings -> settings)) {
            person(klave, "ana");
            long now = Instant.now().getEpochSecond();

            provider.nextSignIn(Map.of("sub", "s-ana", "email", "ana@example.com", "email_verified", true,
                    "nbf", now + 3600), Map.of());
            assertThat(signIn(provider, klave)).as("valid only an hour from now").isEqualTo("/login?error=token");
            assertThat(klave.events().page(1).events().getFirst().reason()).contains("token");

            provider.nextSignIn(Map.of("sub", "s-ana", "email", "ana@example.com", "email_verified", true,
                    "nbf", now + 30), Map.of());
            assertThat(signIn(provider, klave)).as("half a minute ahead: within the skew").isEqualTo("/");
        }
    }

    @Test
    void aTokenWithoutKeyIdPassesOnlyWhileOneSigningKeyIsPublished() {
        try (TestingOddProvider one = TestingOddProvider.start("/one", 1);
                TestingKlave klave = klaveFor(one, false, settings -> settings)) {
            person(klave, "ana");
            one.signing(TestingOddProvider.Signing.RS256_WITHOUT_KID);
            one.nextSignIn(verified("s-ana", "ana@example.com"), Map.of());
            assertThat(signIn(one, klave)).isEqualTo("/");
        }
        try (TestingOddProvider two = TestingOddProvider.start("/two", 2);
                TestingKlave klave = klaveFor(two, false, settings -> settings)) {
            person(klave, "ana");
            two.signing(TestingOddProvider.Signing.RS256_WITHOUT_KID);
            two.nextSignIn(verified("s-ana", "ana@example.com"), Map.of());
            assertThat(signIn(two, klave)).isEqualTo("/login?error=token");
        }
    }

    @Test
    void aHostedDomainProviderNeedsAMatchingAllowedHdClaim() {
        try (TestingOddProvider provider = TestingOddProvider.start("/hd", 1)) {
            // Before Klave starts: its discovery, in the background, reads whether the provider
            // names a hosted domain; set afterwards, a fast discovery would miss it.
            provider.hostedDomain(true);
            hostedDomain(provider);
        }
    }

    private void hostedDomain(TestingOddProvider provider) {
        try (TestingKlave klave = klaveFor(provider, false, settings -> settings)) {
            person(klave, "ana");

            provider.nextSignIn(verified("s-ana", "ana@example.com"), Map.of());
            assertThat(signIn(provider, klave)).as("a personal account: no hd").isEqualTo("/login?error=domain_not_allowed");

            provider.nextSignIn(Map.of("sub", "s-ana", "email", "ana@example.com", "email_verified", true,
                    "hd", "other.example"), Map.of());
            assertThat(signIn(provider, klave)).as("hd of another domain")
                    .isEqualTo("/login?error=domain_not_allowed");

            provider.nextSignIn(Map.of("sub", "s-ana", "email", "ana@example.com", "email_verified", true,
                    "hd", "example.com"), Map.of());
            assertThat(signIn(provider, klave)).isEqualTo("/");
        }
    }

    @Test
    void tenantStyleClaimsNameThePersonByOidAndVouchWithXmsEdov() {
        try (TestingOddProvider provider = TestingOddProvider.start("/tenant", 1);
                TestingKlave klave = klaveFor(provider, false, settings -> settings
                        .with("OIDC_SUBJECT_CLAIM", "oid").with("OIDC_EMAIL_VERIFIED_CLAIM", "xms_edov"))) {
            Subject ana = person(klave, "ana");
            provider.nextSignIn(Map.of("sub", "pairwise-123", "oid", "00000000-aaaa-bbbb-cccc-000000000001",
                    "email", "ana@example.com", "xms_edov", true), Map.of());

            assertThat(signIn(provider, klave)).isEqualTo("/");
            assertThat(klave.identities().findFor(ana.id(), IdentityProvider.OIDC)
                    .map(ExternalIdentity::key)).contains(ExternalIdentity.Key.oidc(provider.issuer(), "oid",
                    "00000000-aaaa-bbbb-cccc-000000000001"));
        }
    }

    @Test
    void anIssuerWithATrailingSlashMustBeConfiguredWithIt() {
        try (TestingOddProvider provider = TestingOddProvider.start("/slash/", 1)) {
            try (TestingKlave klave = klaveFor(provider, false, settings -> settings)) {
                person(klave, "ana");
                provider.nextSignIn(verified("s-ana", "ana@example.com"), Map.of());
                assertThat(signIn(provider, klave)).isEqualTo("/");
            }
            try (TestingKlave without = klaveFor(provider, false, settings -> settings
                    .with("OIDC_ISSUER", provider.issuer().substring(0, provider.issuer().length() - 1)))) {
                assertThat(signIn(provider, without)).as("the discovery document names another issuer")
                        .isEqualTo("/login?error=provider_unavailable");
                assertThat(without.hooks().oidcProvider().orElseThrow().status().orElseThrow().error())
                        .hasValueSatisfying(error -> assertThat(error).contains("names issuer"));
            }
        }
    }

    @Test
    void anAddressOnlyInUserinfoCountsWhenUserinfoAnswersAboutTheSameSub() {
        try (TestingOddProvider provider = TestingOddProvider.start("/userinfo", 1);
                TestingKlave klave = klaveFor(provider, false, settings -> settings)) {
            person(klave, "ana");
            provider.nextSignIn(Map.of("sub", "s-ana"), verified("s-ana", "ana@example.com"));
            assertThat(signIn(provider, klave)).isEqualTo("/");

            provider.nextSignIn(Map.of("sub", "s-ana"), verified("someone-else", "ana@example.com"));
            assertThat(signIn(provider, klave)).as("userinfo about another sub").isEqualTo("/login?error=token");
        }
    }

    /**
     * Spec 2 §5 rule 3, every mix: the e-mail and its verification come both from the ID token or,
     * when it lacks either, both from userinfo — never the address from one and the word that it is
     * verified from the other. {@code A} is the address of an account; {@code B} is nobody's.
     */
    @Test
    void theAddressAndItsVerificationComeFromOneSourceNeverOneFromEach() {
        record Mix(String why, Map<String, Object> token, Map<String, Object> userInfo, String expected) {}
        String a = "A";
        String b = "B";
        List<Mix> mixes = List.of(
                new Mix("token vouches without an address, userinfo gives the address unverified",
                        Map.of("email_verified", true), Map.of("email", a, "email_verified", false),
                        "/login?error=email_unverified"),
                new Mix("token vouches without an address, userinfo gives the address and no verification",
                        Map.of("email_verified", true), Map.of("email", a), "/login?error=email_unverified"),
                new Mix("token gives the address unverified, userinfo vouches for another one",
                        Map.of("email", a), Map.of("email", b, "email_verified", true),
                        "/login?error=unknown_account"),
                new Mix("token gives the address unverified, userinfo vouches for no address",
                        Map.of("email", a), Map.of("email_verified", true), "/login?error=email_unverified"),
                new Mix("token gives the address unverified, userinfo says nothing",
                        Map.of("email", a), Map.of(), "/login?error=email_unverified"),
                new Mix("token vouches without an address, userinfo says nothing",
                        Map.of("email_verified", true), Map.of(), "/login?error=no_email"),
                new Mix("neither says anything", Map.of(), Map.of(), "/login?error=no_email"),
                new Mix("token says it is not verified: userinfo is not asked",
                        Map.of("email", a, "email_verified", false), Map.of("email", a, "email_verified", true),
                        "/login?error=email_unverified"),
                new Mix("token gives both: userinfo is not asked",
                        Map.of("email", a, "email_verified", true), Map.of("email", b, "email_verified", false),
                        "/"),
                new Mix("token gives neither, userinfo both", Map.of(), Map.of("email", a, "email_verified", true),
                        "/"));
        try (TestingOddProvider provider = TestingOddProvider.start("/mixes", 1);
                TestingKlave klave = klaveFor(provider, false, settings -> settings)) {
            for (int i = 0; i < mixes.size(); i++) {
                Mix mix = mixes.get(i);
                String login = "mix" + i;
                Subject account = person(klave, login);
                String sub = "s-mix-" + i;
                Map<String, String> addresses = Map.of(a, login + "@example.com", b, "nobody-" + i + "@example.com");
                UnaryOperator<Map<String, Object>> filled = claims -> {
                    Map<String, Object> values = new java.util.LinkedHashMap<>(Map.of("sub", sub));
                    claims.forEach((name, value) -> values.put(name,
                            value instanceof String text && addresses.containsKey(text) ? addresses.get(text) : value));
                    return values;
                };
                provider.nextSignIn(filled.apply(mix.token()), filled.apply(mix.userInfo()));

                assertThat(signIn(provider, klave)).as(mix.why()).isEqualTo(mix.expected());
                Optional<ExternalIdentity.Key> linked = klave.identities()
                        .findFor(account.id(), IdentityProvider.OIDC).map(ExternalIdentity::key);
                if (mix.expected().equals("/")) {
                    assertThat(linked).as(mix.why()).contains(ExternalIdentity.Key.oidc(provider.issuer(), "sub", sub));
                } else {
                    assertThat(linked).as(mix.why() + ": the account with the address is not linked").isEmpty();
                }
            }
        }
    }

    /**
     * Spec 2 §5 rule 1: a state serves one callback. At a provider that accepts a code twice, the
     * callback replayed with its state cookie (from another address, as a thief would) is
     * {@code state}, recorded, and opens no session.
     */
    @Test
    void aCallbackReplayedWithItsStateCookieIsStateEvenWhereTheProviderTakesACodeTwice() {
        try (TestingOddProvider provider = TestingOddProvider.start("/replay", 1);
                TestingKlave klave = klaveFor(provider, false, settings -> settings)) {
            provider.codesReusable(true);
            person(klave, "ana");
            provider.nextSignIn(verified("s-ana", "ana@example.com"), Map.of());
            SignInBrowser browser = browserFor(provider, klave);
            String atProvider = browser.get("/api/auth/oidc/login").headers().firstValue("Location").orElseThrow();
            String callback = browser.get(atProvider).headers().firstValue("Location").orElseThrow();
            String stateCookie = browser.cookie("service_oidc_state");
            assertThat(browser.follow(callback)).isEqualTo("/");

            SignInBrowser thief = browserFor(provider, klave);
            thief.set("service_oidc_state", stateCookie, "/api/auth/oidc/callback");

            assertThat(thief.follow(callback)).isEqualTo("/login?error=state");
            assertThat(thief.has("service_session")).isFalse();
            assertThat(klave.events().page(1).events().getFirst().reason()).contains("state");
        }
    }

    @Test
    void aPublicClientSendsItsIdAndTheVerifierOnly() {
        try (TestingOddProvider provider = TestingOddProvider.start("/public", 1);
                TestingKlave klave = klaveFor(provider, true, settings -> settings)) {
            person(klave, "ana");
            provider.nextSignIn(verified("s-ana", "ana@example.com"), Map.of());

            assertThat(signIn(provider, klave)).isEqualTo("/");
            assertThat(provider.tokenRequests()).singleElement().asString().startsWith("null ")
                    .contains("client_id=" + TestingOddProvider.CLIENT_ID).contains("code_verifier=")
                    .doesNotContain("client_secret");
        }
    }

    /**
     * Spec 2 §7 {@code provider_unavailable}, RELIABILITY.md: every call to the provider ends within
     * its 5 s deadline, however slowly its answer comes, and stops reading at 512 KiB, however much
     * is sent. Discovery (and its keys) failing that way is recorded in the discovery status.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "discovery, TRICKLE, discovery document: no complete answer within 5 s",
            "discovery, ENDLESS, discovery document: answer larger than 524288 bytes",
            "discovery, HUGE, discovery document: answer larger than 524288 bytes",
            "jwks, TRICKLE, signing keys: no complete answer within 5 s",
            "token, TRICKLE, ",
            "token, ENDLESS, ",
            "userinfo, TRICKLE, "})
    void aProviderThatTricklesOrNeverEndsIsProviderUnavailableWithinTheDeadline(String endpoint,
            TestingBodies.Misbehaviour how, String discoveryError) {
        try (TestingOddProvider provider = TestingOddProvider.start("/" + endpoint + "-" + how, 1)) {
            provider.misbehave(endpoint, Optional.of(how));
            try (TestingKlave klave = klaveFor(provider, false, settings -> settings)) {
                person(klave, "ana");
                provider.nextSignIn(endpoint.equals("userinfo") ? Map.of("sub", "s-ana")
                        : verified("s-ana", "ana@example.com"), verified("s-ana", "ana@example.com"));
                long start = System.nanoTime();

                assertThat(signIn(provider, klave)).isEqualTo("/login?error=provider_unavailable");

                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one call's deadline, and a margin")
                        .isLessThan(Duration.ofSeconds(8));
                if (discoveryError != null) {
                    DiscoveryStatus status = klave.hooks().oidcProvider().orElseThrow().status()
                            .orElseThrow();
                    assertThat(status.failing()).isTrue();
                    assertThat(status.error()).hasValueSatisfying(error -> assertThat(error).contains(discoveryError));
                }
                if (how != TestingBodies.Misbehaviour.TRICKLE) {
                    assertThat(provider.lastMisbehavingBytes(Duration.ofSeconds(10))).as("not read to the end")
                            .isLessThan(32L * 1024 * 1024);
                }
            }
        }
    }

    @Test
    void discoveryDownAtStartDoesNotStopKlaveAndIsFetchedAtSignInOnceUp() throws Exception {
        try (TestingOddProvider provider = TestingOddProvider.start("/late", 1)) {
            provider.discoveryUp(false);
            try (TestingKlave klave = klaveFor(provider, false, settings -> settings)) {
                assertThat(klave.http().get("/readyz").statusCode()).as("Klave serves meanwhile").isEqualTo(200);
                OidcProvider oidc = klave.hooks().oidcProvider().orElseThrow();
                Eventually.until("the provider's discovery status recorded", Duration.ofSeconds(5),
                        () -> oidc.status().isPresent());
                assertThat(oidc.status().orElseThrow().failing()).isTrue();
                assertThat(signIn(provider, klave)).isEqualTo("/login?error=provider_unavailable");

                provider.discoveryUp(true);
                person(klave, "ana");
                provider.nextSignIn(verified("s-ana", "ana@example.com"), Map.of());
                assertThat(signIn(provider, klave)).isEqualTo("/");
                assertThat(oidc.status().orElseThrow().failing()).isFalse();
            }
        }
    }
}
