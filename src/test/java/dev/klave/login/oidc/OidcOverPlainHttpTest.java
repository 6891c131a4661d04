package dev.klave.login.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.Login;
import dev.klave.account.NewPerson;
import dev.klave.config.ExtraCertificates;
import dev.klave.testing.SignInBrowser;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingOidcProvider;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Spec 2 §2 asks of {@code OIDC_ISSUER} only that it equal the discovery document's issuer: a
 * provider over plain http (a test's, or one on a private network) works, with a warning at start.
 */
class OidcOverPlainHttpTest {
    @Test
    void aProviderOverPlainHttpSignsPeopleIn() {
        try (TestingOidcProvider provider = TestingOidcProvider.startOverPlainHttp();
                TestingKlave klave = TestingKlave.startAtOwnAddress(new TestingClock(Instant.now()), settings -> {
                    provider.settings("example.com").forEach(settings::with);
                    return settings;
                })) {
            assertThat(provider.issuer()).startsWith("http://");
            klave.accounts().createPerson(new NewPerson(new Login("ana"), Optional.empty(),
                    Optional.of("ana@example.com"), false, false), Optional.empty());
            provider.nextSignIn("sub-ana", "ana@example.com");

            String landed = new SignInBrowser(ExtraCertificates.tlsContext(Optional.empty()), klave.port(),
                    "127.0.0.1").signInWithOidc();

            assertThat(landed).isEqualTo("/");
        }
    }
}
