package dev.klave.login;

import static dev.klave.testing.TestingPeople.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an attacker sees of a locked login (spec 1 §5 "Password login" 2, issue 51 finding 10): a
 * sign-in the lock refuses is not tried, so it adds nothing to the address's 10 a minute, and its
 * {@code Retry-After} is the lock's remaining time, never the address's minute.
 */
class LockedLoginTest {
    private static final Duration LOCK = Duration.ofMinutes(15);

    private final TestingClock clock = new TestingClock();
    private TestingKlave klave;
    private TestingHttp http;

    @BeforeEach
    void start() {
        klave = TestingKlave.start(clock, settings -> settings);
        http = klave.http();
        TestingPeople.signUp(klave, "ana", false);
        TestingPeople.signUp(klave, "eva", false);
    }

    @AfterEach
    void stop() {
        klave.close();
    }

    /** Every attempt from the same address: the test's client, not one of TestingPeople's. */
    private HttpResponse<String> attempt(String login, String password) {
        return http.send("POST", "/api/auth/login", "{\"login\":\"" + login + "\",\"password\":\"" + password + "\"}");
    }

    private void lockAna() {
        for (int i = 0; i < 5; i++) {
            assertThat(attempt("ana", "not the password").statusCode()).isEqualTo(401);
        }
    }

    private static long retryAfter(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(429);
        assertThat(response.body()).isEqualTo("{\"error\":\"demasiados intentos\"}");
        return Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
    }

    @Test
    void attemptsOnALockedLoginDoNotBringTheAddressCloserToItsLimit() {
        lockAna();
        for (int i = 0; i < 20; i++) {
            assertThat(attempt("ana", i % 2 == 0 ? PASSWORD : "guess-" + i).statusCode()).as("locked").isEqualTo(429);
        }
        for (int i = 0; i < 4; i++) {
            assertThat(attempt("nadie-" + i, "guess").statusCode()).as("tried, counted").isEqualTo(401);
        }

        // Five failures and four unknown logins were tried: eva's is the tenth attempt of the minute.
        assertThat(attempt("eva", PASSWORD).statusCode()).isEqualTo(200);
        HttpResponse<String> eleventh = attempt("eva", PASSWORD);
        assertThat(retryAfter(eleventh)).as("the address's minute, now full").isBetween(1L, 60L);
    }

    @Test
    void retryAfterOfALockedLoginIsTheLocksRemainingTime() {
        lockAna();
        Duration elapsed = Duration.ofSeconds(4);
        clock.advance(elapsed);

        // Beyond ten answers, where the address's own minute (56 s left) would have been told.
        for (int i = 0; i < 15; i++) {
            assertThat(retryAfter(attempt("ana", PASSWORD))).as("attempt %s", i)
                    .isCloseTo(LOCK.minus(elapsed).toSeconds(), within(1L));
        }

        Duration later = Duration.ofMinutes(7).plusMillis(3_500);
        clock.advance(later);
        elapsed = elapsed.plus(later);
        assertThat(retryAfter(attempt("ana", "not the password")))
                .isCloseTo(LOCK.minus(elapsed).toSeconds(), within(1L));

        clock.advance(LOCK.minus(elapsed));
        assertThat(attempt("ana", PASSWORD).statusCode()).as("the lock over").isEqualTo(200);
    }
}
