package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A string field takes a JSON string and nothing else (spec 1 §4, §7: 400 {@code cuerpo JSON no
 * válido}): a number, boolean or huge exponent is neither read as text nor stored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsonTypesTest {
    private TestingKlave klave;
    private TestingHttp http;
    private String admin;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private static void assertInvalidJson(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).isEqualTo("{\"error\":\"cuerpo JSON no válido\"}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"123", "true", "1e999999", "12.5", "[\"x\"]"})
    void aPasswordThatIsNotAStringIsRefusedNotTriedAsText(String password) {
        HttpResponse<String> response = http.send("POST", "/api/auth/login",
                "{\"login\":\"root\",\"password\":" + password + "}");

        assertInvalidJson(response);
    }

    @Test
    void aClusterNameThatIsANumberIsRefusedAndNothingIsStored() {
        assertInvalidJson(http.send("POST", "/api/clusters", "{\"id\":\"numbers\",\"name\":12}", "Cookie", admin));

        assertThat(http.get("/api/clusters/numbers", "Cookie", admin).statusCode()).isEqualTo(404);
        HttpResponse<String> created = http.send("POST", "/api/clusters", "{\"id\":\"numbers\",\"name\":\"12\"}",
                "Cookie", admin);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.body()).contains("\"name\":\"12\"");
    }

    @Test
    void aPersonWhoseDisplayNameIsABooleanIsNotCreated() {
        assertInvalidJson(http.send("POST", "/api/subjects",
                "{\"login\":\"typed\",\"display_name\":true,\"email\":\"\",\"is_admin\":false}", "Cookie", admin));

        assertThat(http.get("/api/subjects", "Cookie", admin).body()).doesNotContain("\"typed\"");
    }
}
