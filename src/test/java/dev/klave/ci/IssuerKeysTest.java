package dev.klave.ci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyType;
import dev.klave.testing.TestingActionsIssuer;
import dev.klave.testing.TestingClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cache rules of {@link IssuerKeys}, with a fetcher that counts its calls. */
class IssuerKeysTest {
    private final TestingClock clock = new TestingClock();
    private final List<JWK> published = new ArrayList<>(List.of(TestingActionsIssuer.newKey("k1").toPublicJWK()));
    private int fetches;
    private boolean down;
    private final IssuerKeys keys = new IssuerKeys(() -> {
        fetches++;
        if (down) {
            throw new IOException("connection refused");
        }
        return new JWKSet(List.copyOf(published));
    }, clock);

    private static JWKSelector kid(String kid) {
        return new JWKSelector(new JWKMatcher.Builder().keyType(KeyType.RSA).keyID(kid).build());
    }

    @Test
    void keysAreFetchedOnceAndServedFromTheCache() throws Exception {
        assertThat(keys.get(kid("k1"), null)).hasSize(1);
        assertThat(keys.get(kid("k1"), null)).hasSize(1);

        assertThat(fetches).isEqualTo(1);
    }

    @Test
    void unknownKidRefetchesAtMostOncePerMinute() throws Exception {
        keys.get(kid("k1"), null);

        assertThat(keys.get(kid("forged-1"), null)).isEmpty();
        assertThat(keys.get(kid("forged-2"), null)).isEmpty();
        assertThat(fetches).isEqualTo(2);

        published.add(TestingActionsIssuer.newKey("k2").toPublicJWK());
        clock.advance(Duration.ofSeconds(59));
        assertThat(keys.get(kid("k2"), null)).isEmpty();
        assertThat(fetches).isEqualTo(2);

        clock.advance(Duration.ofSeconds(1));
        assertThat(keys.get(kid("k2"), null)).hasSize(1);
        assertThat(fetches).isEqualTo(3);
    }

    @Test
    void rotatedKeyIsFoundByTheRefetchItTriggers() throws Exception {
        keys.get(kid("k1"), null);
        published.add(TestingActionsIssuer.newKey("k2").toPublicJWK());

        assertThat(keys.get(kid("k2"), null)).hasSize(1);
    }

    @Test
    void cachedKeysSurviveAnIssuerOutageAndAreRefreshedAfterwards() throws Exception {
        keys.get(kid("k1"), null);
        down = true;
        clock.advance(IssuerKeys.CACHE_FOR);

        assertThat(keys.get(kid("k1"), null)).hasSize(1);

        down = false;
        clock.advance(IssuerKeys.CACHE_FOR);
        published.add(TestingActionsIssuer.newKey("k3").toPublicJWK());
        assertThat(keys.get(kid("k3"), null)).hasSize(1);
    }

    @Test
    void withoutAnyKeyTheSourceFailsClosedAndRetriesOnlyAfterAPause() {
        down = true;

        assertThatThrownBy(() -> keys.get(kid("k1"), null)).isInstanceOf(IssuerKeys.KeysUnavailableException.class)
                .hasMessageContaining("connection refused");
        assertThatThrownBy(() -> keys.get(kid("k1"), null)).isInstanceOf(IssuerKeys.KeysUnavailableException.class);
        assertThat(fetches).isEqualTo(1);

        down = false;
        clock.advance(IssuerKeys.RETRY_AFTER_FAILURE);
        assertThat(catching(() -> keys.get(kid("k1"), null))).hasSize(1);
        assertThat(fetches).isEqualTo(2);
    }

    private static List<JWK> catching(ThrowingSupplier supplier) {
        try {
            return supplier.get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @FunctionalInterface
    private interface ThrowingSupplier {
        List<JWK> get() throws Exception;
    }
}
