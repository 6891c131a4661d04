package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.access.Grant;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.credential.Credential;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A page of a listing costs the same few statements whether it shows 5 rows or 300 rows of 300
 * different owners: owners and holders come in the page's own query, never one query per row (the
 * credentials listing used to run one per credential: 20,201 for 20,000).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ListingQueryCountTest {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final int OWNERS = 300;

    private TestingKlave klave;
    private TestingHttp http;
    private String admin;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(NOW), settings -> settings);
        http = klave.http();
        admin = TestingPeople.signUp(klave, "root", true);
        assertThat(http.send("POST", "/api/clusters", "{\"id\":\"prod\",\"name\":\"prod\"}", "Cookie", admin)
                .statusCode()).isEqualTo(201);
        Database database = klave.klave().database();
        JdbiSubjectStore subjects = new JdbiSubjectStore(database);
        JdbiCredentialStore credentials = new JdbiCredentialStore(database);
        JdbiGrantStore grants = new JdbiGrantStore(database);
        database.inTransaction(() -> {
            for (int i = 0; i < OWNERS; i++) {
                Subject owner = Subject.newPerson(new Login("owner" + i), "Owner", Optional.empty(), false, false,
                        NOW);
                subjects.create(owner);
                Instant created = NOW.minusSeconds(i);
                credentials.create(new Credential(UUID.randomUUID().toString(), "hash-" + UUID.randomUUID(),
                        owner.id(), Optional.empty(), "ci", "", created, created.plus(Duration.ofDays(1)),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                grants.create(new Grant(UUID.randomUUID().toString(), owner.id(), new ClusterId("prod"), Tier.VIEW,
                        Scope.ALL, Optional.empty(), "", created, Optional.empty(), Optional.empty(),
                        Optional.empty()));
            }
        });
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private int statements(String path) {
        AtomicReference<HttpResponse<String>> answer = new AtomicReference<>();
        int count = klave.klave().database().statementsDuring(() -> answer.set(http.get(path, "Cookie", admin)));
        assertThat(answer.get().statusCode()).as(answer.get().body()).isEqualTo(200);
        return count;
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/credentials", "/api/grants", "/api/subjects"})
    void aPageCostsTheSameFewStatementsWhateverItsSize(String listing) {
        int small = statements(listing + "?limit=5");
        int large = statements(listing + "?limit=" + OWNERS);
        int whole = statements(listing);

        // The session check and the listing; the subjects' list adds a fixed few (sign-ins, links,
        // grant counts, linked identities), each read once for the whole page.
        assertThat(small).isLessThanOrEqualTo(12);
        assertThat(large).as("%s rows of %s owners", OWNERS, OWNERS).isEqualTo(small);
        assertThat(whole).isEqualTo(small);
    }
}
