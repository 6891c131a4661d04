package dev.klave.limits;

import static dev.klave.testing.TestingPeople.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Per-address limits behind a trusted proxy count an IPv6 client by its block (a /64 unless
 * {@code SERVICE_IPV6_PREFIX} says otherwise): a client cannot pass the sign-in or CI limits by
 * taking a new address of its block for every attempt.
 */
class AddressBlocksTest {
    private final TestingClock clock = new TestingClock();
    private TestingKlave klave;

    @AfterEach
    void stop() {
        klave.close();
    }

    private TestingHttp start(String ipv6Prefix) {
        klave = TestingKlave.start(clock, settings -> settings.with("SERVICE_TRUSTED_PROXIES", "127.0.0.1")
                .with("SERVICE_IPV6_PREFIX", ipv6Prefix));
        return klave.http();
    }

    /** A failed sign-in under a login of its own (five failures of one login would lock it). */
    private static int signIn(TestingHttp http, String forwardedFor) {
        HttpResponse<String> answer = http.send("POST", "/api/auth/login", "{\"login\":\"nobody-"
                + Integer.toHexString(forwardedFor.hashCode()) + "\",\"password\":\"" + PASSWORD + "\"}",
                "X-Forwarded-For", forwardedFor);
        return answer.statusCode();
    }

    private static int exchange(TestingHttp http, String forwardedFor) {
        return http.send("POST", "/v1/ci/forge-actions/token", "{\"token\":\"x\"}", "X-Forwarded-For", forwardedFor)
                .statusCode();
    }

    @Test
    void tenSignInsFromOneSlash64AndTheEleventhIsRefusedWhateverItsAddress() {
        TestingHttp http = start("64");
        for (int i = 1; i <= 10; i++) {
            assertThat(signIn(http, "2001:db8:1:2::" + Integer.toHexString(i * 4099))).isEqualTo(401);
        }

        assertThat(signIn(http, "2001:db8:1:2:ffff:ffff:ffff:ffff")).isEqualTo(429);
        assertThat(signIn(http, "2001:db8:1:3::1")).as("the next /64 is another client").isEqualTo(401);
        assertThat(signIn(http, "192.0.2.7")).isEqualTo(401);
    }

    @Test
    void ciExchangesAreCountedByBlockToo() {
        TestingHttp http = start("56");
        for (int i = 0; i < 60; i++) {
            assertThat(exchange(http, "2001:db8:1:" + Integer.toHexString(i) + "::1")).isNotEqualTo(429);
        }

        assertThat(exchange(http, "2001:db8:1:ff::1")).isEqualTo(429);
        assertThat(exchange(http, "2001:db8:1:100::1")).isNotEqualTo(429);
    }
}
