package dev.klave.login.forge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IdentityProvider;
import dev.klave.account.IssuedLink;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.audit.ControlEvent;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingForge;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.SignInBrowser;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Sign-in through the forge (spec 1 §5 "Forge login checks", §7 "Forge login failure codes"),
 * walked as a browser walks it: Klave's login route, the forge simulator's authorization page,
 * Klave's callback. Every failure code comes from a real callback.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgeSignInTest {
    private static final AtomicInteger ADDRESSES = new AtomicInteger();
    private static final AtomicInteger LOGINS = new AtomicInteger();

    private final TestingClock clock = new TestingClock(Instant.parse("2026-11-27T09:00:00Z"));
    private TestingForge forge;
    private TestingKlave klave;

    @BeforeAll
    void start() {
        forge = TestingForge.start(clock);
        klave = TestingKlave.startWithForge(clock, forge, settings -> settings
                .with("SERVICE_TRUSTED_PROXIES", "127.0.0.1/32"));
    }

    @AfterAll
    void stop() {
        klave.close();
        forge.close();
    }

    @BeforeEach
    void calmForge() {
        for (String family : List.of("token", "user", "membership", "org", "members", "installation")) {
            forge.fault(family, TestingForge.Fault.NONE);
        }
        forge.twoFactorRequired(Optional.of(true));
        forge.installed(true);
        // Past the 2FA answer any earlier test left in Klave's cache.
        clock.advance(Duration.ofMinutes(11));
    }

    private SignInBrowser browser() {
        int n = ADDRESSES.incrementAndGet();
        return new SignInBrowser(forge.clientTls(), klave.port(), "203.0.113." + (n % 250 + 1));
    }

    /** A person linked to a new forge account that is an active member; returns the forge id. */
    private Linked linkedMember(String prefix) {
        String login = prefix + "-" + LOGINS.incrementAndGet();
        IssuedLink invitation = klave.accounts().createPerson(
                new NewPerson(new Login(login), Optional.empty(), Optional.empty(), false, false), Optional.empty());
        long forgeId = forge.createUser(login + "-gh");
        forge.addMember(forgeId);
        forge.consentAs(forgeId);
        SignInBrowser browser = browser();
        HttpResponse<String> started = startLink(browser, invitation.link());
        assertThat(started.statusCode()).isEqualTo(200);
        String landed = browser.follow(urlOf(started));
        assertThat(landed).isEqualTo("/");
        return new Linked(invitation.subject(), forgeId);
    }

    private record Linked(Subject subject, long forgeId) {}

    @Test
    void anInstallationDeletedDeliveryDropsTheKeptInstallationToken() throws Exception {
        Linked ana = linkedMember("kept");
        forge.consentAs(ana.forgeId());
        assertThat(browser().signIn()).isEqualTo("/");
        int issued = forge.installationTokensIssued();
        assertThat(browser().signIn()).isEqualTo("/");
        assertThat(forge.installationTokensIssued()).as("the token is kept between sign-ins").isEqualTo(issued);

        byte[] deleted = "{\"action\":\"deleted\",\"installation\":{\"id\":77,\"account\":{\"login\":\"acme\"}}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpResponse<String> delivery = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create("http://127.0.0.1:" + klave.port() + "/v1/forge/webhook"))
                .header("Content-Type", "application/json").header("X-GitHub-Event", "installation")
                .header("X-Hub-Signature-256", TestingForge.sign(deleted, TestingForge.WEBHOOK_SECRET))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(deleted)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(delivery.statusCode()).isEqualTo(200);

        assertThat(browser().signIn()).isEqualTo("/");
        assertThat(forge.installationTokensIssued()).isEqualTo(issued + 1);
    }

    @Test
    void anUninstalledAppFailsSignInWithForgeAndAReinstalledOneWorksAtOnce() {
        Linked ana = linkedMember("reinstalled");
        forge.consentAs(ana.forgeId());
        assertThat(browser().signIn()).isEqualTo("/");

        forge.installed(false);
        assertThat(browser().signIn()).isEqualTo("/login?error=forge");

        forge.installed(true);
        assertThat(browser().signIn()).as("the revoked token is not kept").isEqualTo("/");
    }

    @Test
    void aSignInStartedFromTheConsentPageLandsBackThereAndFailuresKeepIt() {
        Linked ana = linkedMember("consent");
        String consent = "/agents/authorize/eyJjIjoiYSJ9*c2ln";
        String next = java.net.URLEncoder.encode(consent, java.nio.charset.StandardCharsets.UTF_8);

        forge.consentAs(ana.forgeId());
        assertThat(browser().follow("/api/auth/forge/login?next=" + next)).isEqualTo(consent);

        forge.installed(false);
        assertThat(browser().follow("/api/auth/forge/login?next=" + next)).as("the login page can try again")
                .isEqualTo("/login?error=forge&next=" + next);
        forge.installed(true);

        for (String hostile : List.of("//evil.example", "/\\evil.example", "https://evil.example", "/%2F%2Fevil",
                "javascript:alert(1)", "/mi-cuenta%0d%0aSet-Cookie:%20a=b", "/api/auth/logout")) {
            forge.consentAs(ana.forgeId());
            assertThat(browser().follow("/api/auth/forge/login?next=" + java.net.URLEncoder.encode(hostile,
                    java.nio.charset.StandardCharsets.UTF_8))).as(hostile).isEqualTo("/");
        }
    }

    /** What the invitation page's button does: POST the link, get the forge's address and the state cookie. */
    private static HttpResponse<String> startLink(SignInBrowser browser, String link) {
        return browser.send("POST", "/api/auth/forge/link", "{\"token\":\"" + TestingPeople.tokenOf(link) + "\"}");
    }

    private static String urlOf(HttpResponse<String> response) {
        String body = response.body();
        int start = body.indexOf("\"url\":\"") + 7;
        return body.substring(start, body.indexOf('"', start)).replace("\\u0026", "&");
    }

    private ControlEvent lastEvent(String type) {
        return klave.events().page(1).events().stream()
                .filter(event -> event.type().equals(type)).findFirst().orElseThrow();
    }

    private long countEvents(String type) {
        return klave.events().page(1).events().stream()
                .filter(event -> event.type().equals(type)).count();
    }

    @Test
    void aLinkedActiveMemberIsSignedInAndLandsOnTheHomePage() {
        Linked ana = linkedMember("ana");
        SignInBrowser browser = browser();
        forge.consentAs(ana.forgeId());

        assertThat(browser.signIn()).isEqualTo("/");

        assertThat(browser.has("service_session")).isTrue();
        assertThat(browser.has("service_forge_state")).as("the state serves one callback").isFalse();
        HttpResponse<String> me = browser.get("/api/me");
        assertThat(me.statusCode()).isEqualTo(200);
        assertThat(me.body()).contains("\"login\":\"" + ana.subject().login().value() + "\"")
                .contains("\"forge\":{\"id\":" + ana.forgeId());
        ControlEvent success = lastEvent("login.success");
        assertThat(success.via()).contains("forge");
        assertThat(success.target().map(ControlEvent.SubjectRef::id)).contains(ana.subject().id().value());
    }

    @Test
    void theStateCookieIsScopedToTheCallbackHttpOnlyAndShortLived() {
        HttpResponse<String> started = browser().get("/api/auth/forge/login");

        assertThat(started.statusCode()).isEqualTo(302);
        assertThat(started.headers().firstValue("Location").orElseThrow())
                .startsWith(forge.url() + "/login/oauth/authorize?client_id=" + TestingForge.CLIENT_ID)
                .contains("redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fapi%2Fauth%2Fforge%2Fcallback")
                .contains("&state=");
        String cookie = started.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).startsWith("service_forge_state=").contains("; Path=/api/auth/forge/callback")
                .contains("; Max-Age=600").contains("; HttpOnly").contains("; SameSite=Lax").doesNotContain("Secure");
    }

    @Test
    void withoutTheStateCookieTheCallbackFailsWithStateAndRecordsNothing() {
        Linked ana = linkedMember("nostate");
        long before = countEvents("login.failure");
        SignInBrowser browser = browser();
        HttpResponse<String> started = browser.get("/api/auth/forge/login");
        browser.forget("service_forge_state");
        forge.consentAs(ana.forgeId());

        String landed = browser.follow(started.headers().firstValue("Location").orElseThrow());

        assertThat(landed).isEqualTo("/login?error=state");
        assertThat(browser.has("service_session")).isFalse();
        assertThat(countEvents("login.failure")).as("a missing cookie stays in the log").isEqualTo(before);
    }

    @Test
    void aStateCookieOlderThanTenMinutesFailsWithState() {
        Linked ana = linkedMember("late");
        SignInBrowser browser = browser();
        HttpResponse<String> started = browser.get("/api/auth/forge/login");
        forge.consentAs(ana.forgeId());
        clock.advance(Duration.ofMinutes(10).plusSeconds(1));

        assertThat(browser.follow(started.headers().firstValue("Location").orElseThrow()))
                .isEqualTo("/login?error=state");
    }

    @Test
    void aStateParameterOtherThanTheCookiesFailsWithStateAndIsRecorded() {
        Linked ana = linkedMember("mismatch");
        SignInBrowser browser = browser();
        browser.get("/api/auth/forge/login");

        HttpResponse<String> callback = browser.get("/api/auth/forge/callback?code="
                + forge.issueCode(ana.forgeId()) + "&state=forged");

        assertThat(callback.headers().firstValue("Location")).contains("/login?error=state");
        assertThat(lastEvent("login.failure").reason()).contains("state");
    }

    @Test
    void cancellingAtTheForgeFailsWithDenied() {
        SignInBrowser browser = browser();
        forge.denyConsent();

        assertThat(browser.signIn()).isEqualTo("/login?error=denied");
        assertThat(lastEvent("login.failure").reason()).contains("denied");
    }

    @Test
    void aForgeAccountLinkedToNoAccountFailsWithUnknownAccount() {
        long stranger = forge.createUser("stranger-" + LOGINS.incrementAndGet());
        forge.addMember(stranger);
        forge.consentAs(stranger);

        assertThat(browser().signIn()).isEqualTo("/login?error=unknown_account");
        assertThat(lastEvent("login.failure").via()).contains("forge");
    }

    @Test
    void aDisabledAccountFailsWithDisabled() {
        Linked ana = linkedMember("off");
        klave.hooks().lifecycle().disable(ana.subject().id(), Optional.empty(), Optional.empty());
        forge.consentAs(ana.forgeId());

        assertThat(browser().signIn()).isEqualTo("/login?error=disabled");
        assertThat(lastEvent("login.failure").target().map(ControlEvent.SubjectRef::id))
                .contains(ana.subject().id().value());
    }

    @Test
    void someoneNoLongerOrOnlyInvitedToTheOrganisationFailsWithNotMember() {
        Linked gone = linkedMember("gone");
        forge.removeMember(gone.forgeId());
        forge.consentAs(gone.forgeId());
        assertThat(browser().signIn()).isEqualTo("/login?error=not_member");

        Linked pending = linkedMember("pending");
        forge.invite(pending.forgeId());
        forge.consentAs(pending.forgeId());
        assertThat(browser().signIn()).as("a pending invitation does not count").isEqualTo("/login?error=not_member");
    }

    @Test
    void anOrganisationWithoutTwoFactorFailsWithNo2faButAnUnreadableSettingLetsPeopleIn() {
        Linked ana = linkedMember("twofa");
        forge.consentAs(ana.forgeId());
        forge.twoFactorRequired(Optional.of(false));
        clock.advance(Duration.ofMinutes(11));
        assertThat(browser().signIn()).isEqualTo("/login?error=no_2fa");

        forge.twoFactorRequired(Optional.empty());
        clock.advance(Duration.ofMinutes(11));
        assertThat(browser().signIn()).as("without the Administration permission Klave cannot tell")
                .isEqualTo("/");
    }

    @Test
    void theTwoFactorAnswerIsCachedForTenMinutes() {
        Linked ana = linkedMember("cache");
        forge.consentAs(ana.forgeId());
        clock.advance(Duration.ofMinutes(11));
        browser().signIn();
        int asked = forge.twoFactorQueries();

        forge.twoFactorRequired(Optional.of(false));
        assertThat(browser().signIn()).as("the cached answer still holds").isEqualTo("/");
        assertThat(forge.twoFactorQueries()).isEqualTo(asked);

        clock.advance(Duration.ofMinutes(10));
        assertThat(browser().signIn()).isEqualTo("/login?error=no_2fa");
        forge.twoFactorRequired(Optional.of(true));
    }

    @Test
    void aForgeThatFailsAnywhereFailsWithForge() {
        Linked ana = linkedMember("broken");
        forge.consentAs(ana.forgeId());
        for (String family : List.of("token", "user", "membership", "installation")) {
            // The installation token is reused for most of an hour: past it, a new one is asked for.
            clock.advance(Duration.ofMinutes(56));
            forge.fault(family, TestingForge.Fault.SERVER_ERROR);
            assertThat(browser().signIn()).as(family).isEqualTo("/login?error=forge");
            forge.fault(family, TestingForge.Fault.NONE);
        }
        clock.advance(Duration.ofMinutes(11));
        forge.fault("org", TestingForge.Fault.SERVER_ERROR);
        assertThat(browser().signIn()).as("2FA query").isEqualTo("/login?error=forge");
        forge.fault("org", TestingForge.Fault.NONE);
        assertThat(lastEvent("login.failure").reason()).contains("forge");
    }

    @Test
    void aCodeTheForgeRefusesFailsWithForge() {
        SignInBrowser browser = browser();
        HttpResponse<String> started = browser.get("/api/auth/forge/login");
        String location = started.headers().firstValue("Location").orElseThrow();
        String state = location.substring(location.indexOf("&state=") + 7);

        HttpResponse<String> callback = browser.get("/api/auth/forge/callback?code=spent-or-made-up&state=" + state);

        assertThat(callback.headers().firstValue("Location")).contains("/login?error=forge");
    }

    @Test
    void elevenSignInsFromOneAddressInAMinuteFailWithRateLimited() {
        Linked ana = linkedMember("busy");
        forge.consentAs(ana.forgeId());
        SignInBrowser browser = browser();
        for (int i = 0; i < 10; i++) {
            assertThat(browser.signIn()).isEqualTo("/");
        }
        assertThat(browser.signIn()).isEqualTo("/login?error=rate_limited");
        assertThat(lastEvent("login.failure").reason()).contains("rate_limited");
        clock.advance(Duration.ofMinutes(1));
    }

    @Test
    void theInvitationLinkLinksTheForgeAccountAndSignsIn() {
        Linked ana = linkedMember("invited");

        Optional<ExternalIdentity> identity = klave.identities()
                .findFor(ana.subject().id(), IdentityProvider.FORGE);
        assertThat(identity.map(found -> found.key().forgeId())).contains(ana.forgeId());
        assertThat(identity.flatMap(ExternalIdentity::display)).contains(forge.login(ana.forgeId()));
        assertThat(lastEvent("link.complete").via()).contains("forge");
    }

    @Test
    void aLinkSpentBeforeTheCallbackFailsWithLinkGone() {
        IssuedLink invitation = klave.accounts().createPerson(new NewPerson(
                new Login("spent-" + LOGINS.incrementAndGet()), Optional.empty(), Optional.empty(), false, false),
                Optional.empty());
        long forgeId = forge.createUser("spent-gh-" + LOGINS.get());
        forge.addMember(forgeId);
        forge.consentAs(forgeId);
        SignInBrowser browser = browser();
        HttpResponse<String> started = startLink(browser, invitation.link());
        // A new link for the account revokes the pending one (spec 1 §3).
        klave.accounts().resetLink(invitation.subject().id(),
                new Principal(invitation.subject().id(), invitation.subject().login(), true, java.util.Optional.of("test")));

        assertThat(browser.follow(urlOf(started))).isEqualTo("/login?error=link_gone");
    }

    @Test
    void aForgeAccountLinkedToAnotherAccountFailsWithForgeTaken() {
        Linked ana = linkedMember("taken");
        IssuedLink invitation = klave.accounts().createPerson(new NewPerson(
                new Login("second-" + LOGINS.incrementAndGet()), Optional.empty(), Optional.empty(), false, false),
                Optional.empty());
        forge.consentAs(ana.forgeId());
        SignInBrowser browser = browser();
        HttpResponse<String> started = startLink(browser, invitation.link());

        assertThat(browser.follow(urlOf(started))).isEqualTo("/login?error=forge_taken");
    }

    @Test
    void linkingFromTheAccountPageNeedsTheSameSessionAndRefusesAnAccountLinkedMeanwhile() {
        Linked ana = linkedMember("own");
        klave.identities().unlink(ana.subject().id(), IdentityProvider.FORGE);
        forge.consentAs(ana.forgeId());
        SignInBrowser browser = browser();
        // Signed in some other way (a session opened directly, as a break-glass password would).
        String session = klave.hooks().openSession(ana.subject()).cookieValue();
        browser.set("service_session", session, "/");
        HttpResponse<String> started = browser.send("POST", "/api/me/forge/link", "");
        assertThat(started.statusCode()).isEqualTo(200);
        browser.set("service_session", klave.hooks().openSession(ana.subject()).cookieValue(), "/");

        assertThat(browser.follow(urlOf(started))).as("another session came back").isEqualTo("/mi-cuenta?error=state");

        browser.set("service_session", session, "/");
        HttpResponse<String> again = browser.send("POST", "/api/me/forge/link", "");
        long other = forge.createUser("other-" + LOGINS.incrementAndGet());
        forge.addMember(other);
        klave.identities().link(new ExternalIdentity(ana.subject().id(),
                ExternalIdentity.Key.forge(other), Optional.of("other"), Optional.empty(), clock.instant()));
        assertThat(browser.follow(urlOf(again))).isEqualTo("/mi-cuenta?error=already_linked");

        klave.identities().unlink(ana.subject().id(), IdentityProvider.FORGE);
        HttpResponse<String> third = browser.send("POST", "/api/me/forge/link", "");
        assertThat(browser.follow(urlOf(third))).isEqualTo("/mi-cuenta?forge=linked");
        assertThat(browser.send("POST", "/api/me/forge/link", "").statusCode()).as("already linked").isEqualTo(409);
    }

    @Test
    void theForgeLoginIsRefreshedWhenThePersonWasRenamed() {
        Linked ana = linkedMember("renamed");
        forge.rename(ana.forgeId(), "brand-new-name-" + LOGINS.incrementAndGet());
        forge.consentAs(ana.forgeId());

        assertThat(browser().signIn()).isEqualTo("/");

        assertThat(klave.identities().findFor(ana.subject().id(), IdentityProvider.FORGE)
                .flatMap(ExternalIdentity::display)).contains(forge.login(ana.forgeId()));
    }

    @Test
    void noForgeTokenReachesAnAddressBarOrAnEvent() {
        Linked ana = linkedMember("secret");
        forge.consentAs(ana.forgeId());
        browser().signIn();

        assertThat(forge.requests()).noneMatch(line -> line.contains("ghu_") || line.contains("ghs_"));
        assertThat(klave.events().page(1).events()).noneMatch(event ->
                String.valueOf(event).contains("ghu_") || String.valueOf(event).contains("ghs_"));
    }

    @Test
    void anInternalErrorFailsWithServerAndRecordsNothing() {
        Linked ana = linkedMember("internal");
        forge.consentAs(ana.forgeId());
        long before = countEvents("login.failure");
        klave.klave().database().withHandle(handle -> handle.execute("ALTER TABLE sessions RENAME TO sessions_gone"));
        try {
            assertThat(browser().signIn()).isEqualTo("/login?error=server");
        } finally {
            klave.klave().database().withHandle(handle -> handle.execute("ALTER TABLE sessions_gone RENAME TO sessions"));
        }
        assertThat(countEvents("login.failure")).as("internal errors stay in the log").isEqualTo(before);
        assertThat(browser().signIn()).isEqualTo("/");
    }

    @Test
    void aLockedPasswordDoesNotStopTheForgeSignIn() {
        String login = "glass-" + LOGINS.incrementAndGet();
        IssuedLink invitation = klave.accounts().createPerson(
                new NewPerson(new Login(login), Optional.empty(), Optional.empty(), true, true), Optional.empty());
        HttpResponse<String> completed = klave.http().send("POST", "/api/auth/link/complete", "{\"token\":\""
                + TestingPeople.tokenOf(invitation.link()) + "\",\"password\":\"" + TestingPeople.PASSWORD + "\"}",
                "X-Forwarded-For", "198.18.0.1");
        assertThat(completed.statusCode()).as("break-glass accounts keep their password").isEqualTo(200);
        for (int i = 0; i < 5; i++) {
            TestingPeople.attempt(klave.http(), login, "not the password at all");
        }
        assertThat(TestingPeople.attempt(klave.http(), login, TestingPeople.PASSWORD).statusCode()).isEqualTo(429);
        long forgeId = forge.createUser(login + "-gh");
        forge.addMember(forgeId);
        klave.identities().link(new ExternalIdentity(invitation.subject().id(),
                ExternalIdentity.Key.forge(forgeId), Optional.of(login + "-gh"), Optional.empty(), clock.instant()));
        forge.consentAs(forgeId);

        assertThat(browser().signIn()).isEqualTo("/");
    }

    /**
     * RELIABILITY.md: a forge call ends within its 5 s deadline however slowly the answer comes, and
     * stops reading at 4 MiB however much is sent; the sign-in ends with {@code forge}.
     */
    @Test
    void aForgeThatTricklesOrNeverEndsFailsWithForgeWithinTheDeadline() {
        Linked ana = linkedMember("slow");
        for (String family : List.of("token", "user")) {
            for (TestingForge.Fault fault : List.of(TestingForge.Fault.TRICKLE, TestingForge.Fault.ENDLESS)) {
                forge.fault(family, fault);
                forge.consentAs(ana.forgeId());
                long start = System.nanoTime();

                assertThat(browser().signIn()).as(family + " " + fault).isEqualTo("/login?error=forge");

                assertThat(Duration.ofNanos(System.nanoTime() - start)).as(family + " " + fault)
                        .isLessThan(Duration.ofSeconds(8));
                assertThat(forge.lastMisbehavingBytes(Duration.ofSeconds(10))).as("not read to the end")
                        .isLessThan(32L * 1024 * 1024);
                forge.fault(family, TestingForge.Fault.NONE);
            }
        }
    }

    /**
     * The forge refuses a code twice, but the state must not rely on it (spec 1 §5 "Forge login
     * checks" 2, spec 2 §5 rule 1): the callback replayed with its state cookie is {@code state}
     * even where the code would be taken again, and opens no session.
     */
    @Test
    void aCallbackReplayedWithItsStateCookieIsStateEvenWhereTheCodeWouldBeTakenTwice() {
        Linked ana = linkedMember("replayed");
        forge.consentAs(ana.forgeId());
        forge.codesReusable(true);
        try {
            SignInBrowser browser = browser();
            String atForge = browser.get("/api/auth/forge/login").headers().firstValue("Location").orElseThrow();
            String callback = browser.get(atForge).headers().firstValue("Location").orElseThrow();
            String stateCookie = browser.cookie("service_forge_state");
            assertThat(browser.follow(callback)).isEqualTo("/");

            SignInBrowser thief = browser();
            thief.set("service_forge_state", stateCookie, "/api/auth/forge/callback");

            assertThat(thief.follow(callback)).isEqualTo("/login?error=state");
            assertThat(thief.has("service_session")).isFalse();
            assertThat(klave.events().page(1).events().getFirst().reason()).contains("state");
        } finally {
            forge.codesReusable(false);
        }
    }

    @Test
    void aLinkingLinkMovesTheAccountToAnotherForgeAccount() {
        Linked ana = linkedMember("moving");
        Principal admin = new Principal(ana.subject().id(), ana.subject().login(), true, java.util.Optional.of("test"));
        IssuedLink linking = klave.accounts().resetLink(ana.subject().id(), admin);
        long newForgeId = forge.createUser("moving-new-" + LOGINS.incrementAndGet());
        forge.addMember(newForgeId);
        forge.consentAs(newForgeId);
        SignInBrowser browser = browser();
        HttpResponse<String> started = startLink(browser, linking.link());

        assertThat(browser.follow(urlOf(started))).isEqualTo("/");

        assertThat(klave.identities().findFor(ana.subject().id(), IdentityProvider.FORGE)
                .map(identity -> identity.key().forgeId())).contains(newForgeId);
        forge.consentAs(ana.forgeId());
        assertThat(browser().signIn()).as("the old forge account opens nothing now")
                .isEqualTo("/login?error=unknown_account");
    }
}
