package dev.klave.oauth.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.config.AddressGroups;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.limits.PerAddressLimit;
import dev.klave.messages.Message;
import dev.klave.oauth.OAuthRoutes;
import dev.klave.oauth.PendingAuthorizations;
import dev.klave.oauth.client.ClientMetadataDocuments;
import dev.klave.oauth.client.Registration;
import dev.klave.oauth.session.AgentSession;
import dev.klave.oauth.session.AgentSessions;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.store.JdbiClientStore;
import dev.klave.store.JdbiRateWindowStore;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingDatabase;
import dev.klave.testing.TestingKlave;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cap on registered clients (spec 3 §8: 10 000) and the deletion of unused ones (30 days), with
 * a cap of 3 so that the test need not register 10 000 clients. The routes are served by a Klave
 * whose own agent login is off, so that these, with the lowered cap, are the only ones at
 * {@code /oauth/register}.
 */
class RegistrationLimitsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BODY = "{\"redirect_uris\": [\"http://localhost/cb\"]}";

    private final TestingClock clock = new TestingClock();
    private TestingDatabase database;
    private JdbiClientStore clients;
    private TestingKlave klave;

    @BeforeEach
    void start() {
        database = TestingDatabase.sqlite();
        clients = new JdbiClientStore(database.database());
        PerAddressLimit perAddress = new PerAddressLimit(new JdbiRateWindowStore(database.database()), "register:",
                1000, new AddressGroups(AddressGroups.DEFAULT_IPV6_PREFIX), clock, Message.OAUTH_TOO_MANY_REGISTRATIONS);
        Registration registration = new Registration(clients, perAddress, new SecretTokenGenerator(new SecureRandom()),
                3, clock);
        klave = TestingKlave.start(clock, settings -> settings.with("SERVICE_MCP_ENABLED", "false")
                .with("SERVICE_BASE_URL", "https://klave.example.com"), new OAuthRoutes(registration,
                new AgentTokens(database.database(), new dev.klave.store.JdbiAgentSessionStore(database.database()),
                        new dev.klave.store.JdbiAgentTokenStore(database.database()),
                        new SecretTokenGenerator(new SecureRandom()), clock), perAddress,
                new OAuthRoutes.Authorization(clients, ClientMetadataDocuments.standard(defaultTls(), clock),
                        new PendingAuthorizations(new dev.klave.crypto.Hmac(new byte[32]), clock), perAddress,
                        new dev.klave.access.Authority(new dev.klave.store.JdbiGrantStore(database.database()),
                                dev.klave.access.LentAccess.NONE, clock),
                        new dev.klave.store.JdbiExternalIdentityStore(database.database()),
                        new dev.klave.store.JdbiUsedStateStore(database.database()),
                        new dev.klave.audit.ControlEvents(new dev.klave.store.JdbiControlEventStore(database.database()),
                                clock)),
                new AgentSessions(database.database(), new dev.klave.store.JdbiAgentSessionStore(database.database()),
                        new dev.klave.store.JdbiSubjectStore(database.database()),
                        new dev.klave.audit.ControlEvents(new dev.klave.store.JdbiControlEventStore(database.database()),
                                clock), clock),
                dev.klave.config.BaseUrl.parse("https://klave.example.com"), clock));
    }

    private static javax.net.ssl.SSLContext defaultTls() {
        try {
            return javax.net.ssl.SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stop() {
        klave.close();
        database.close();
    }

    /** A login completed with the client: an agent session names it. */
    private void signedIn(String clientId) {
        dev.klave.account.Subject person = dev.klave.account.Subject.newPerson(new dev.klave.account.Login(
                "p-" + java.util.UUID.randomUUID().toString().substring(0, 8)), "P", java.util.Optional.empty(), false,
                false, clock.instant());
        new dev.klave.store.JdbiSubjectStore(database.database()).create(person);
        new dev.klave.store.JdbiAgentSessionStore(database.database()).create(new AgentSession(
                "s_" + java.util.UUID.randomUUID().toString().replace("-", ""), person.id(), clientId, java.util.List.of(),
                true, "password", clock.instant(), clock.instant().plus(Duration.ofDays(30)), java.util.Optional.empty(),
                java.util.Optional.empty(), java.util.Optional.empty()));
    }

    private String registered() throws Exception {
        return JSON.readTree(register().body()).path("client_id").asText();
    }

    private HttpResponse<String> register() {
        return klave.http().send("POST", "/oauth/register", BODY, "Content-Type", "application/json");
    }

    @Test
    void pastTheCapARegistrationIsRefusedAsTemporarilyUnavailable() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(register().statusCode()).isEqualTo(201);
        }

        HttpResponse<String> refused = register();

        assertThat(refused.statusCode()).isEqualTo(503);
        JsonNode error = JSON.readTree(refused.body());
        assertThat(error.path("error").asText()).isEqualTo("temporarily_unavailable");
        assertThat(error.path("error_description").asText())
                .isEqualTo("Klave ya tiene 3 clientes registrados: inténtalo más tarde");
        assertThat(clients.countRegistered()).isEqualTo(3);
    }

    @Test
    void clientsUnusedForThirtyDaysAreDeletedBeforeTheCapIsCounted() throws Exception {
        String old = registered();
        signedIn(old);
        clock.advance(Duration.ofDays(10));
        String used = registered();
        String lateUsed = registered();
        signedIn(used);
        signedIn(lateUsed);
        clock.advance(Duration.ofDays(20));
        clients.touch(lateUsed, clock.instant());
        clock.advance(Duration.ofSeconds(1));

        HttpResponse<String> fourth = register();

        assertThat(fourth.statusCode()).isEqualTo(201);
        assertThat(clients.find(old)).as("unused 30 days").isEmpty();
        assertThat(clients.find(used)).as("registered 20 days ago").isPresent();
        assertThat(clients.find(lateUsed)).isPresent();
    }

    /** The agent-safety review: anyone could fill the cap with registrations nobody finishes, for 30 days. */
    @Test
    void clientsThatNeverSignedInAreSweptADayAfterTheyRegistered() throws Exception {
        String abandoned = registered();
        String finished = registered();
        signedIn(finished);
        registered();
        assertThat(register().statusCode()).isEqualTo(503);
        clock.advance(Duration.ofDays(1).plusSeconds(1));

        assertThat(register().statusCode()).isEqualTo(201);
        assertThat(clients.find(abandoned)).isEmpty();
        assertThat(clients.find(finished)).isPresent();
    }

    @Test
    void theSweepRunsAtMostOnceAnHour() throws Exception {
        signedIn(registered());
        String second = registered();
        signedIn(second);
        clock.advance(Duration.ofDays(30).minusMinutes(30));
        signedIn(registered());
        clock.advance(Duration.ofMinutes(31));

        // The last sweep ran 31 minutes ago: this registration does not sweep, and the cap is reached.
        assertThat(register().statusCode()).isEqualTo(503);
        assertThat(clients.find(second)).isPresent();
        clock.advance(Duration.ofMinutes(30));
        assertThat(register().statusCode()).isEqualTo(201);
        assertThat(clients.find(second)).isEmpty();
    }
}
