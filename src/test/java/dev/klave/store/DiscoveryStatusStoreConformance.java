package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.login.oidc.DiscoveryStatus;
import dev.klave.login.oidc.DiscoveryStatusStore;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link DiscoveryStatusStore} must do, whatever the database behind it. */
abstract class DiscoveryStatusStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");

    private DiscoveryStatusStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiDiscoveryStatusStore(database);
    }

    @Test
    void aFailureAfterAFetchIsFailingAndAFetchAfterItIsNot() {
        String issuer = "https://idp-" + UUID.randomUUID() + ".example/";
        assertThat(store.find(issuer)).isEmpty();

        store.fetched(issuer, NOW);
        assertThat(store.find(issuer)).contains(new DiscoveryStatus(issuer, Optional.of(NOW), Optional.empty(),
                Optional.empty()));

        store.failed(issuer, NOW.plusSeconds(60), "discovery document: HTTP 503");
        DiscoveryStatus failed = store.find(issuer).orElseThrow();
        assertThat(failed.failing()).isTrue();
        assertThat(failed.fetchedAt()).contains(NOW);
        assertThat(failed.error()).contains("discovery document: HTTP 503");

        store.fetched(issuer, NOW.plusSeconds(120));
        assertThat(store.find(issuer).orElseThrow().failing()).isFalse();
    }
}
