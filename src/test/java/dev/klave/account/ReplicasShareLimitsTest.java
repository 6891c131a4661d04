package dev.klave.account;

import static dev.klave.testing.TestingPeople.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.config.DatabaseUrl;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingPostgres;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two replicas on one PostgreSQL count sign-in failures and attempts together (spec 1 §5). */
class ReplicasShareLimitsTest {
    private final TestingClock clock = new TestingClock();
    private DatabaseUrl.Postgres database;
    private TestingKlave first;
    private TestingKlave second;

    @BeforeEach
    void start() {
        database = TestingPostgres.freshDatabase();
        first = TestingKlave.startOn(database, clock, settings -> settings);
        second = TestingKlave.startOn(database, clock, settings -> settings);
    }

    @AfterEach
    void stop() {
        first.close();
        second.close();
        TestingPostgres.drop(database);
    }

    private static HttpResponse<String> attempt(TestingHttp http, String login, String password) {
        return http.send("POST", "/api/auth/login", "{\"login\":\"" + login + "\",\"password\":\"" + password + "\"}");
    }

    @Test
    void failuresOnEitherReplicaLockTheAccountOnBoth() {
        TestingPeople.signUp(first, "ana", false);
        for (int i = 0; i < 5; i++) {
            TestingHttp replica = i % 2 == 0 ? first.http() : second.http();
            assertThat(attempt(replica, "ana", "not the password").statusCode()).isEqualTo(401);
        }

        assertThat(attempt(first.http(), "ana", PASSWORD).body()).isEqualTo("{\"error\":\"demasiados intentos\"}");
        assertThat(attempt(second.http(), "ana", PASSWORD).body()).isEqualTo("{\"error\":\"demasiados intentos\"}");
    }

    @Test
    void attemptsFromOneAddressAreCountedAcrossReplicas() {
        for (int i = 0; i < 10; i++) {
            TestingHttp replica = i % 2 == 0 ? first.http() : second.http();
            assertThat(attempt(replica, "nobody-" + i, PASSWORD).statusCode()).isEqualTo(401);
        }

        HttpResponse<String> refused = attempt(second.http(), "nobody", PASSWORD);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 60L);
        assertThat(attempt(first.http(), "nobody", PASSWORD).statusCode()).isEqualTo(429);
    }

    @Test
    void sessionOpenedOnOneReplicaWorksAndEndsOnTheOther() {
        String cookie = TestingPeople.signUp(first, "ana", false);

        assertThat(second.http().get("/api/me", "Cookie", cookie).statusCode()).isEqualTo(200);
        second.http().send("POST", "/api/auth/logout", null, "Cookie", cookie);

        assertThat(first.http().get("/api/me", "Cookie", cookie).statusCode()).isEqualTo(401);
    }
}
