package dev.klave.login.forge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.IdentityProvider;
import dev.klave.account.Subject;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingForge;
import dev.klave.testing.TestingKlave;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code DELETE /api/subjects/{id}/forge} (spec 1 §3, §4): sessions closed, never the last administrator. */
class ForgeUnlinkTest {
    private final TestingClock clock = new TestingClock(Instant.parse("2026-11-27T09:00:00Z"));
    private TestingForge forge;
    private TestingKlave klave;

    @BeforeEach
    void start() {
        forge = TestingForge.start(clock);
        klave = TestingKlave.startWithForge(clock, forge, settings -> settings);
    }

    @AfterEach
    void stop() {
        klave.close();
        forge.close();
    }

    private Subject linked(String login, boolean admin) {
        return forge.linkedPerson(klave, login, admin, false).subject();
    }

    private String session(Subject subject) {
        return "service_session=" + klave.hooks().openSession(subject).cookieValue();
    }

    @Test
    void unlinkingClosesThePersonsSessionsAndShowsNoForgeLink() {
        Subject root = linked("root", true);
        Subject ana = linked("ana", false);
        String admin = session(root);
        String anas = session(ana);

        HttpResponse<String> response = klave.http().send("DELETE", "/api/subjects/" + ana.id().value() + "/forge",
                null, "Cookie", admin);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"forge\":null");
        assertThat(klave.identities().findFor(ana.id(), IdentityProvider.FORGE)).isEmpty();
        assertThat(klave.http().get("/api/me", "Cookie", anas).statusCode()).isEqualTo(401);
        assertThat(klave.http().get("/api/me", "Cookie", admin).statusCode()).isEqualTo(200);
    }

    @Test
    void theLastAdministratorAbleToSignInCannotBeUnlinked() {
        Subject root = linked("root", true);
        String admin = session(root);

        HttpResponse<String> response = klave.http().send("DELETE", "/api/subjects/" + root.id().value() + "/forge",
                null, "Cookie", admin);

        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(response.body()).isEqualTo(
                "{\"error\":\"no se puede quitar ni deshabilitar al último administrador activo\"}");
        assertThat(klave.identities().findFor(root.id(), IdentityProvider.FORGE)).isPresent();
    }

    @Test
    void onlyAdministratorsUnlink() {
        linked("root", true);
        Subject ana = linked("ana", false);

        HttpResponse<String> response = klave.http().send("DELETE", "/api/subjects/" + ana.id().value() + "/forge",
                null, "Cookie", session(ana));

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(klave.identities().findFor(ana.id(), IdentityProvider.FORGE)).isPresent();
    }

    /**
     * Spec 1 §5 "Break-glass": with the forge on and no administrator able to sign in, the
     * installation's health says so (Klave's start logs it too); a linked administrator ends it.
     */
    @Test
    void theInstallationSaysWhenNoAdministratorCanSignIn() {
        // Break-glass, but its invitation never used: no password, so no way in. The session asking
        // is the test's own, not a way in.
        Subject glass = klave.accounts().createPerson(new dev.klave.account.NewPerson(
                new dev.klave.account.Login("glass"), Optional.empty(), Optional.empty(), true, true),
                Optional.empty()).subject();
        String asGlass = session(glass);
        assertThat(klave.http().get("/api/installation/health", "Cookie", asGlass).body())
                .contains("{\"name\":\"admin_can_sign_in\",\"state\":\"failing\",");

        linked("root", true);

        assertThat(klave.http().get("/api/installation/health", "Cookie", asGlass).body())
                .contains("{\"name\":\"admin_can_sign_in\",\"state\":\"ok\",\"detail\":null}");
    }

    @Test
    void underABaseUrlPathTheStateCookieAndTheRedirectsCarryThePath() {
        try (TestingKlave prefixed = TestingKlave.startWithForge(clock, forge, settings -> settings
                .with("SERVICE_BASE_URL", "https://klave.example.com/klave"))) {
            HttpResponse<String> started = prefixed.http().get("/api/auth/forge/login");

            assertThat(started.headers().firstValue("Set-Cookie").orElseThrow())
                    .contains("; Path=/klave/api/auth/forge/callback;");
            assertThat(started.headers().firstValue("Location").orElseThrow())
                    .contains("redirect_uri=https%3A%2F%2Fklave.example.com%2Fklave%2Fapi%2Fauth%2Fforge%2Fcallback");
            assertThat(prefixed.http().get("/api/auth/forge/callback?code=x&state=y").headers()
                    .firstValue("Location")).contains("/klave/login?error=state");
        }
    }

    @Test
    void theMethodsNameTheForgeAndItsOrganisation() {
        HttpResponse<String> response = klave.http().get("/api/auth/methods");

        assertThat(response.body()).isEqualTo("{\"forge\":true,\"org\":\"acme\",\"oidc\":false,\"oidc_name\":\"\"}");
    }
}
