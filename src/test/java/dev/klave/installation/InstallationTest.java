package dev.klave.installation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.IssuedLink;
import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.config.ExtraCertificates;
import dev.klave.login.forge.SyncReport;
import dev.klave.store.JdbiSyncReportStore;
import dev.klave.testing.Eventually;
import dev.klave.testing.SignInBrowser;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingForge;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingOidcProvider;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code GET /api/notices} and {@code GET /api/installation/health}: what administrators are told. */
class InstallationTest {
    private final TestingClock clock = new TestingClock(Instant.now());

    private static String adminSession(TestingKlave klave, Optional<Long> forgeId, TestingForge forge) {
        IssuedLink root = klave.accounts().createPerson(new NewPerson(new Login("root"),
                Optional.empty(), Optional.of("root@example.com"), true, false), Optional.empty());
        forgeId.ifPresent(id -> klave.identities().link(new ExternalIdentity(root.subject().id(),
                ExternalIdentity.Key.forge(id), Optional.of("root-gh"), Optional.empty(), Instant.now())));
        return "service_session=" + klave.hooks().openSession(root.subject()).cookieValue();
    }

    @Test
    void aProviderThatCannotBeReadIsANoticeAndAFailingCheck() throws Exception {
        TestingOidcProvider down = TestingOidcProvider.start();
        Map<String, String> settings = down.settings("example.com");
        down.close();
        try (TestingKlave klave = TestingKlave.startAtOwnAddress(clock, base -> {
            settings.forEach(base::with);
            return base;
        })) {
            Eventually.until("the provider's discovery status recorded", Duration.ofSeconds(5),
                    () -> klave.hooks().oidcProvider().orElseThrow().status().isPresent());
            String admin = adminSession(klave, Optional.empty(), null);

            HttpResponse<String> notices = klave.http().get("/api/notices", "Cookie", admin);
            HttpResponse<String> health = klave.http().get("/api/installation/health", "Cookie", admin);

            assertThat(notices.body()).contains("\"code\":\"oidc_discovery_failing\"").contains("\"level\":\"warning\"")
                    .as("in Spanish, naming the provider as people read it, not its exception")
                    .contains("Klave no puede leer el documento de descubrimiento de Acme SSO: ")
                    .contains("Nadie puede entrar con Acme SSO hasta que se pueda.").doesNotContain("Exception");
            assertThat(health.body()).startsWith("{\"healthy\":false,").contains(
                    "{\"name\":\"oidc_discovery\",\"state\":\"failing\"").contains(
                    "{\"name\":\"database\",\"state\":\"ok\",\"detail\":null}").contains(
                    "{\"name\":\"forge_sync\",\"state\":\"off\",\"detail\":null}");
            assertThat(health.body()).as("root has no way in: no password, no identity yet")
                    .contains("{\"name\":\"admin_can_sign_in\",\"state\":\"failing\"");
            assertThat(klave.http().get("/api/oidc/status", "Cookie", admin).body())
                    .as("spec 2 §4: the last error when a fetch failed, and never fetched")
                    .contains("\"discovery\":{\"fetched_at\":null,\"failed_at\":\"")
                    .containsPattern("\"error\":\"discovery document: [^\"]+\"")
                    .as("a failure without a message is named by its kind, not 'null'").doesNotContain(": null");
        }
    }

    @Test
    void aDiscoveryNotFetchedYetIsItsOwnStateAndNoFailure() throws Exception {
        // A provider that accepts the connection and never answers: the fetch at start stays
        // pending for its 5 s timeout, long enough to look at "not fetched yet".
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50,
                java.net.InetAddress.getLoopbackAddress());
                TestingKlave klave = TestingKlave.startAtOwnAddress(clock, base -> base
                        .with("OIDC_ISSUER", "https://127.0.0.1:" + silent.getLocalPort() + "/silent")
                        .with("OIDC_CLIENT_ID", "klave").with("OIDC_CLIENT_SECRET", "secret")
                        .with("OIDC_ALLOWED_DOMAINS", "example.com"))) {
            String admin = adminSession(klave, Optional.empty(), null);

            String status = klave.http().get("/api/oidc/status", "Cookie", admin).body();
            String health = klave.http().get("/api/installation/health", "Cookie", admin).body();
            String notices = klave.http().get("/api/notices", "Cookie", admin).body();

            assertThat(status).contains("\"configured\":true").contains("\"autolink\":\"all\"")
                    .contains("\"domains\":[\"example.com\"]").contains("\"public_client\":false")
                    .contains("\"discovery\":{\"fetched_at\":null,\"failed_at\":null,\"error\":null}");
            assertThat(health).contains("{\"name\":\"oidc_discovery\",\"state\":\"ok\","
                    + "\"detail\":\"todavía no se ha leído el documento de descubrimiento\"}");
            assertThat(notices).doesNotContain("oidc_discovery_failing");
        }
    }

    @Test
    void peopleLinkedByEmailThisWeekAreCounted() {
        try (TestingOidcProvider provider = TestingOidcProvider.start();
                TestingKlave klave = TestingKlave.startAtOwnAddress(clock, base -> {
                    provider.settings("example.com").forEach(base::with);
                    return base;
                })) {
            String admin = adminSession(klave, Optional.empty(), null);
            provider.nextSignIn("sub-root", "root@example.com");
            SignInBrowser browser = new SignInBrowser(ExtraCertificates.tlsContext(Optional.of(
                    ExtraCertificates.read(provider.caFile()))), klave.port(), "127.0.0.1");
            assertThat(browser.signInWithOidc()).isEqualTo("/");

            HttpResponse<String> notices = klave.http().get("/api/notices", "Cookie", admin);

            assertThat(notices.body()).contains("\"code\":\"oidc_linked_by_email\"")
                    .contains("1 persona entró por primera vez esta semana y se vinculó por correo.");
            assertThat(klave.http().get("/api/oidc/status", "Cookie", admin).body())
                    .containsPattern("\"discovery\":\\{\"fetched_at\":\"20[0-9-]+T[^\"]+\",\"failed_at\":null,"
                            + "\"error\":null}");
            assertThat(klave.http().get("/api/installation/health", "Cookie", admin).body())
                    .contains("{\"name\":\"oidc_discovery\",\"state\":\"ok\",\"detail\":null}")
                    .contains("{\"name\":\"admin_can_sign_in\",\"state\":\"ok\",\"detail\":null}");
        }
    }

    @Test
    void aForgeThatCannotReadTwoFactorIsANotice() {
        try (TestingForge forge = TestingForge.start(clock);
                TestingKlave klave = TestingKlave.startWithForge(clock, forge, settings -> settings)) {
            String admin = adminSession(klave, Optional.of(forge.createUser("root-gh")), forge);
            new JdbiSyncReportStore(klave.klave().database()).save(new SyncReport(Instant.now(), Instant.now(),
                    "replica", 3, 0, 0, Optional.empty(), Optional.empty()));

            assertThat(klave.http().get("/api/notices", "Cookie", admin).body())
                    .contains("\"code\":\"forge_2fa_unreadable\"");
            assertThat(klave.http().get("/api/installation/health", "Cookie", admin).body())
                    .startsWith("{\"healthy\":true,").contains("{\"name\":\"forge_sync\",\"state\":\"ok\"");
        }
    }

    @Test
    void onlyAdministratorsSeeThem() {
        try (TestingKlave klave = TestingKlave.start(clock, settings -> settings)) {
            IssuedLink ana = klave.accounts().createPerson(new NewPerson(new Login("ana"),
                    Optional.empty(), Optional.empty(), false, false), Optional.empty());
            String session = "service_session=" + klave.hooks().openSession(ana.subject()).cookieValue();

            assertThat(klave.http().get("/api/notices", "Cookie", session).statusCode()).isEqualTo(403);
            assertThat(klave.http().get("/api/installation/health").statusCode()).isEqualTo(401);
        }
    }
}
