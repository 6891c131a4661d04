package dev.klave.login.forge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Spec 1 §4: without the forge, its four sign-in routes are 404 and the webhook does not exist. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgeNotConfiguredTest {
    private TestingKlave klave;
    private String admin;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        admin = TestingPeople.signUp(klave, "root", true);
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    @Test
    void theFourSignInRoutesAre404NamingTheForgeWhateverIsSent() {
        String expected = "{\"error\":\"el acceso con Forge no está configurado\"}";
        for (HttpResponse<String> response : new HttpResponse[] {
            klave.http().get("/api/auth/forge/login"),
            klave.http().get("/api/auth/forge/callback?code=x&state=y"),
            klave.http().send("POST", "/api/auth/forge/link", "{\"token\":\"kli_x\"}"),
            klave.http().send("POST", "/api/me/forge/link", "{}", "Cookie", admin),
            klave.http().send("POST", "/api/me/forge/link", "{}"),
            klave.http().send("POST", "/api/auth/forge/link", ""),
            klave.http().send("POST", "/api/auth/forge/link", "not json"),
            klave.http().send("POST", "/api/auth/forge/link", "{\"token\":\"kli_x\"}", "Origin",
                    "https://elsewhere.example"),
            klave.http().send("DELETE", "/api/auth/forge/login", ""),
            klave.http().send("GET", "/api/me/forge/link", "")}) {
            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(response.body()).isEqualTo(expected);
        }
        for (String method : new String[] {"HEAD", "OPTIONS"}) {
            assertThat(klave.http().send(method, "/api/auth/forge/login", null).statusCode()).as(method)
                    .isEqualTo(404);
        }
    }

    @Test
    void theWebhookIsAnUnknownRoute() {
        HttpResponse<String> response = klave.http().send("POST", "/v1/forge/webhook", "{}",
                "Content-Type", "application/json");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("{\"error\":\"no encontrado\"}");
    }

    @Test
    void theStatusSaysNotConfigured() {
        HttpResponse<String> response = klave.http().get("/api/forge/status", "Cookie", admin);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"configured\":false,\"org\":null,\"webhook\":false,"
                + "\"require_org_2fa\":null,\"last_sync\":null}");
    }
}
