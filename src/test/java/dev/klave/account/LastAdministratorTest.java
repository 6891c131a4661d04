package dev.klave.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** There is always an administrator able to sign in (spec 1 §5 "Break-glass"), on every path. */
class LastAdministratorTest {
    private static final String LAST_ADMIN = "{\"error\":\"no se puede quitar ni deshabilitar al último administrador activo\"}";

    private TestingKlave klave;
    private String root;

    @BeforeEach
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        root = TestingPeople.signUp(klave, "root", true);
    }

    @AfterEach
    void stop() {
        klave.close();
    }

    private String id(String login) {
        return klave.accounts().list().stream()
                .filter(subject -> subject.login().value().equals(login)).findFirst().orElseThrow().id().value();
    }

    private HttpResponse<String> as(String cookie, String method, String path, String body) {
        return klave.http().send(method, path, body, "Cookie", cookie);
    }

    @Test
    void lastAdministratorCannotLoseTheRoleNorBeDisabled() {
        HttpResponse<String> demoted = as(root, "PATCH", "/api/subjects/" + id("root"), "{\"is_admin\":false}");
        HttpResponse<String> disabled = as(root, "POST", "/api/subjects/" + id("root") + "/disable", null);

        assertThat(demoted.statusCode()).isEqualTo(409);
        assertThat(demoted.body()).isEqualTo(LAST_ADMIN);
        assertThat(disabled.statusCode()).isEqualTo(409);
        assertThat(disabled.body()).isEqualTo(LAST_ADMIN);
        assertThat(as(root, "GET", "/api/me", null).body()).contains("\"is_admin\":true");
    }

    @Test
    void anAdministratorWhoCannotSignInYetDoesNotCount() {
        TestingPeople.invite(klave, "bea", true);

        assertThat(as(root, "POST", "/api/subjects/" + id("root") + "/disable", null).statusCode()).isEqualTo(409);
        assertThat(as(root, "POST", "/api/subjects/" + id("bea") + "/disable", null).statusCode()).isEqualTo(200);
    }

    @Test
    void withASecondAdministratorEitherMayGoButNotBoth() {
        String bea = TestingPeople.signUp(klave, "bea", true);

        assertThat(as(bea, "PATCH", "/api/subjects/" + id("root"), "{\"is_admin\":false}").statusCode()).isEqualTo(200);
        HttpResponse<String> second = as(bea, "POST", "/api/subjects/" + id("bea") + "/disable", null);

        assertThat(second.statusCode()).isEqualTo(409);
        assertThat(second.body()).isEqualTo(LAST_ADMIN);
    }

    @Test
    void refusedChangeLeavesNoTrace() {
        as(root, "POST", "/api/subjects/" + id("root") + "/disable", null);

        assertThat(as(root, "GET", "/api/me", null).statusCode()).isEqualTo(200);
        assertThat(as(root, "GET", "/api/control-events", null).body()).doesNotContain("user.disable");
    }
}
