package dev.klave.account;

import static dev.klave.testing.TestingPeople.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Limits that need time to pass (spec 1 §5, §8), with a moved clock instead of sleeping. */
class SignInLimitsTest {
    private final TestingClock clock = new TestingClock();
    private TestingKlave klave;

    @AfterEach
    void stop() {
        if (klave != null) {
            klave.close();
        }
    }

    private TestingHttp start() {
        klave = TestingKlave.start(clock, settings -> settings);
        return klave.http();
    }

    private static HttpResponse<String> attempt(TestingHttp http, String login, String password) {
        return http.send("POST", "/api/auth/login", "{\"login\":\"" + login + "\",\"password\":\"" + password + "\"}");
    }

    private static void assertError(HttpResponse<String> response, int status, String text) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.body()).isEqualTo("{\"error\":\"" + text + "\"}");
    }

    @Test
    void fiveFailuresLockTheAccountForFifteenMinutes() {
        TestingHttp http = start();
        TestingPeople.signUp(klave, "ana", false);
        for (int i = 0; i < 5; i++) {
            assertError(attempt(http, "ana", "not the password"), 401, "usuario o contraseña incorrectos");
        }

        HttpResponse<String> locked = attempt(http, "ana", PASSWORD);
        assertError(locked, 429, "demasiados intentos");
        assertThat(locked.headers().firstValue("Retry-After")).contains("900");
        clock.advance(Duration.ofMinutes(14));
        HttpResponse<String> still = attempt(http, "ana", PASSWORD);
        assertError(still, 429, "demasiados intentos");
        assertThat(still.headers().firstValue("Retry-After")).contains("60");
        clock.advance(Duration.ofMinutes(1));

        assertThat(attempt(http, "ana", PASSWORD).statusCode()).isEqualTo(200);
    }

    /**
     * Spec 1 §5 "Password login" 1, 2: six wrong passwords answer the same statuses in the same order
     * whether the login names an account with a password, one without, a disabled one, a bot, or
     * nobody — else the lockout would tell which logins exist. Nobody's login creates no account.
     */
    @Test
    void sixWrongPasswordsAnswerAlikeWhetherOrNotTheLoginExists() {
        TestingHttp http = start();
        TestingPeople.signUp(klave, "ana", false);
        TestingPeople.invite(klave, "sin-clave", false);
        TestingPeople.signUp(klave, "apagada", false);
        String apagada = klave.accounts().list().stream()
                .filter(subject -> subject.login().value().equals("apagada")).findFirst().orElseThrow().id().value();
        klave.hooks().lifecycle().disable(new SubjectId(apagada), java.util.Optional.empty(),
                java.util.Optional.empty());
        int accounts = klave.accounts().list().size();

        java.util.Map<String, java.util.List<Integer>> answers = new java.util.LinkedHashMap<>();
        for (String login : java.util.List.of("ana", "nadie", "sin-clave", "apagada", "Not A Login")) {
            java.util.List<Integer> statuses = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) {
                statuses.add(attempt(http, login, "not the password").statusCode());
            }
            answers.put(login, statuses);
            clock.advance(Duration.ofMinutes(1)); // past the per-address minute, well within the lock
        }

        assertThat(answers).allSatisfy((login, statuses) -> assertThat(statuses).as(login)
                .containsExactly(401, 401, 401, 401, 401, 429));
        assertThat(klave.accounts().list()).as("nothing created for nadie").hasSize(accounts);
        clock.advance(Duration.ofMinutes(15));
        assertError(attempt(http, "nadie", "not the password"), 401, "usuario o contraseña incorrectos");
    }

    @Test
    void successClearsEarlierFailures() {
        TestingHttp http = start();
        TestingPeople.signUp(klave, "ana", false);
        for (int i = 0; i < 4; i++) {
            attempt(http, "ana", "not the password");
        }
        assertThat(attempt(http, "ana", PASSWORD).statusCode()).isEqualTo(200);
        clock.advance(Duration.ofMinutes(1));

        for (int i = 0; i < 4; i++) {
            assertError(attempt(http, "ana", "not the password"), 401, "usuario o contraseña incorrectos");
        }
        assertThat(attempt(http, "ana", PASSWORD).statusCode()).isEqualTo(200);
    }

    @Test
    void oneAddressGetsTenAttemptsAMinute() {
        TestingHttp http = start();
        TestingPeople.signUp(klave, "ana", false);
        for (int i = 0; i < 10; i++) {
            assertError(attempt(http, "nobody-" + i, PASSWORD), 401, "usuario o contraseña incorrectos");
        }

        assertError(attempt(http, "ana", PASSWORD), 429, "demasiados intentos");
        clock.advance(Duration.ofMinutes(1));

        assertThat(attempt(http, "ana", PASSWORD).statusCode()).isEqualTo(200);
    }

    @Test
    void theMinuteSlidesSoABurstAcrossTheTurnOfTheMinuteIsStillTen() {
        TestingHttp http = start();
        TestingPeople.signUp(klave, "ana", false);
        clock.advance(Duration.ofSeconds(55));
        for (int i = 0; i < 10; i++) {
            assertError(attempt(http, "nobody-" + i, PASSWORD), 401, "usuario o contraseña incorrectos");
        }

        clock.advance(Duration.ofSeconds(10));
        assertError(attempt(http, "ana", PASSWORD), 429, "demasiados intentos");
        clock.advance(Duration.ofSeconds(50));
        assertThat(attempt(http, "ana", PASSWORD).statusCode()).as("a minute after the ten").isEqualTo(200);
    }

    @Test
    void sessionEndsAfterTwelveHours() {
        TestingHttp http = start();
        String cookie = TestingPeople.signUp(klave, "ana", false);
        clock.advance(Duration.ofHours(12).minusSeconds(1));
        assertThat(http.get("/api/me", "Cookie", cookie).statusCode()).isEqualTo(200);

        clock.advance(Duration.ofSeconds(1));

        assertError(http.get("/api/me", "Cookie", cookie), 401, "sesión caducada o no válida");
    }

    @Test
    void invitationLastsSeventyTwoHoursAndResetTwentyFour() {
        TestingHttp http = start();
        String invitation = TestingPeople.invite(klave, "ana", false);
        clock.advance(Duration.ofHours(72));

        assertError(http.send("POST", "/api/auth/link", "{\"token\":\"" + invitation + "\"}"), 410,
                "el enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador");

        String admin = TestingPeople.signUp(klave, "root", true);
        String id = klave.accounts().list().stream()
                .filter(subject -> subject.login().value().equals("ana")).findFirst().orElseThrow().id().value();
        String reset = TestingPeople.tokenOf(http.send("POST", "/api/subjects/" + id + "/reset-link", null,
                "Cookie", admin).body().replaceAll(".*\"reset_link\":\"([^\"]+)\".*", "$1"));
        clock.advance(Duration.ofHours(24).minusSeconds(1));
        assertThat(http.send("POST", "/api/auth/link", "{\"token\":\"" + reset + "\"}").statusCode()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));
        assertError(http.send("POST", "/api/auth/link/complete", "{\"token\":\"" + reset + "\",\"password\":\""
                + PASSWORD + "\"}"), 410, "el enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador");
    }

    @Test
    void httpsBaseUrlMakesTheCookieSecure() {
        klave = TestingKlave.start(clock, settings -> settings.with("SERVICE_BASE_URL", "https://klave.example.com"));
        String token = TestingPeople.invite(klave, "ana", false);

        HttpResponse<String> completed = klave.http().send("POST", "/api/auth/link/complete",
                "{\"token\":\"" + token + "\",\"password\":\"" + PASSWORD + "\"}");

        assertThat(completed.headers().firstValue("Set-Cookie").orElseThrow())
                .endsWith("; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure");
    }
}
