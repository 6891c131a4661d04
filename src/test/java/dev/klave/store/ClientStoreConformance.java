package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.account.SubjectId;
import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.client.ClientKind;
import dev.klave.oauth.client.ClientMetadata;
import dev.klave.oauth.client.ClientStore;
import dev.klave.oauth.client.OAuthClient;
import dev.klave.storage.AlreadyExistsException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link ClientStore} must do, whatever the database (spec 3 §4 "Clients", §8). */
abstract class ClientStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final int NO_LIMIT = Integer.MAX_VALUE;

    private ClientStore clients;

    @Override
    protected void setUp(Database database) {
        clients = new JdbiClientStore(database);
    }

    @BeforeEach
    void empty() {
        // The cap counts every registered client of the database the tests share.
        database().write(handle -> handle.execute("DELETE FROM oauth_clients"));
    }

    private static OAuthClient registered(Instant at) {
        return new OAuthClient("oc_" + UUID.randomUUID(), ClientKind.REGISTERED, new ClientMetadata(
                List.of("http://127.0.0.1/callback", "https://app.example.com/cb"), Optional.of("Claude Code"),
                Optional.of("https://app.example.com"), Optional.empty(), List.of("authorization_code", "refresh_token"),
                List.of("code")), at, at);
    }

    @Test
    void aClientIsFoundAsItWasStored() {
        OAuthClient client = registered(NOW);

        assertThat(clients.createWithin(client, NO_LIMIT)).isTrue();

        assertThat(clients.find(client.id())).contains(client);
        assertThat(clients.find("oc_unknown")).isEmpty();
    }

    /**
     * Issue 51 refused schemes that registration had accepted before: a client stored with one is
     * still read (its listing, its other URIs, its deletion keep working), and the URI matches nothing.
     */
    @Test
    void aClientWhoseRedirectUriARuleRefusedSinceIsStillRead() {
        List<String> declared = List.of("https://app.example.com/cb", "ms-settings:privacy-webcam");
        OAuthClient client = new OAuthClient("oc_" + UUID.randomUUID(), ClientKind.REGISTERED, new ClientMetadata(
                declared, Optional.empty(), Optional.empty(), Optional.empty(), List.of("authorization_code"),
                List.of("code")), NOW, NOW);
        assertThat(clients.createWithin(client, NO_LIMIT)).isTrue();

        assertThat(clients.find(client.id())).contains(client);
        assertThat(dev.klave.oauth.client.RedirectUris.matches("ms-settings:privacy-webcam", declared)).isFalse();
        assertThat(dev.klave.oauth.client.RedirectUris.matches("https://app.example.com/cb", declared)).isTrue();
    }

    @Test
    void aSecondClientWithTheSameIdIsRefused() {
        OAuthClient client = registered(NOW);
        clients.createWithin(client, NO_LIMIT);

        assertThatThrownBy(() -> clients.createWithin(client, NO_LIMIT)).isInstanceOf(AlreadyExistsException.class);
    }

    @Test
    void noClientIsStoredOnceTheRegisteredOnesReachTheLimit() {
        assertThat(clients.createWithin(registered(NOW), 2)).isTrue();
        assertThat(clients.createWithin(registered(NOW), 2)).isTrue();
        OAuthClient third = registered(NOW);

        assertThat(clients.createWithin(third, 2)).isFalse();
        assertThat(clients.find(third.id())).isEmpty();
        assertThat(clients.countRegistered()).isEqualTo(2);
    }

    @Test
    void touchMovesLastUseForwardOnly() {
        OAuthClient client = registered(NOW);
        clients.createWithin(client, NO_LIMIT);

        clients.touch(client.id(), NOW.plus(Duration.ofDays(3)));
        clients.touch(client.id(), NOW.plus(Duration.ofDays(1)));
        clients.touch("oc_unknown", NOW);

        assertThat(clients.find(client.id()).orElseThrow().lastUsedAt()).isEqualTo(NOW.plus(Duration.ofDays(3)));
    }

    @Test
    void onlyClientsUnusedSinceTheCutoffAreDeleted() {
        OAuthClient old = registered(NOW);
        OAuthClient usedLately = registered(NOW);
        OAuthClient recent = registered(NOW.plus(Duration.ofDays(20)));
        clients.createWithin(old, NO_LIMIT);
        clients.createWithin(usedLately, NO_LIMIT);
        clients.createWithin(recent, NO_LIMIT);
        clients.touch(usedLately.id(), NOW.plus(Duration.ofDays(25)));

        int deleted = clients.deleteUnusedSince(NOW.plus(Duration.ofDays(10)));

        assertThat(deleted).isEqualTo(1);
        assertThat(clients.find(old.id())).isEmpty();
        assertThat(clients.find(usedLately.id())).isPresent();
        assertThat(clients.find(recent.id())).isPresent();
        assertThat(clients.countRegistered()).isEqualTo(2);
    }

    @Test
    void onlyClientsRegisteredBeforeTheCutoffThatNoSessionNamesAreDeletedAsNeverSignedIn() {
        OAuthClient abandoned = registered(NOW);
        OAuthClient signedIn = registered(NOW);
        OAuthClient recent = registered(NOW.plus(Duration.ofDays(2)));
        clients.createWithin(abandoned, NO_LIMIT);
        clients.createWithin(signedIn, NO_LIMIT);
        clients.createWithin(recent, NO_LIMIT);
        SubjectId person = storedPerson("client-user");
        new JdbiAgentSessionStore(database()).create(new AgentSession("s_" + UUID.randomUUID().toString()
                .replace("-", ""), person, signedIn.id(), List.of(), true, "password", NOW, NOW.plus(Duration.ofDays(30)),
                Optional.empty(), Optional.empty(), Optional.empty()));

        int deleted = clients.deleteNeverSignedInBefore(NOW.plus(Duration.ofDays(1)));

        assertThat(deleted).isEqualTo(1);
        assertThat(clients.find(abandoned.id())).isEmpty();
        assertThat(clients.find(signedIn.id())).isPresent();
        assertThat(clients.find(recent.id())).isPresent();
    }
}
