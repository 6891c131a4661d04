package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.account.SubjectId;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.store.JdbiClusterStore;
import dev.klave.store.JdbiRecordingStore;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code GET /api/recordings/search?q=…} as a person sees it (issue 51 finding 11): only visible
 * characters count towards the 2 a search needs, so a query of control characters, invisible
 * formatting or spaces is refused with the usual 400 instead of searching for nothing — which
 * found every line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecordingSearchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REFUSED = "{\"error\":\"busca un texto de 2 a 200 caracteres\"}";

    private TestingKlave klave;
    private String admin;

    @BeforeAll
    void start() {
        klave = TestingKlave.start(new TestingClock(), settings -> settings);
        admin = TestingPeople.signUp(klave, "root", true);
        SubjectId owner = klave.accounts().list().getFirst().id();
        ClusterId cluster = new ClusterId("search");
        java.time.Instant now = java.time.Instant.parse("2026-11-29T10:00:00Z");
        new JdbiClusterStore(klave.klave().database()).create(new Cluster(cluster, "Cluster", now, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty()));
        RecordingStore store = new JdbiRecordingStore(klave.klave().database());
        String id = UUID.randomUUID().toString();
        store.create(Recording.started(id, new Recording.Owner(owner, "root"),
                new Recording.Target(cluster, "team-a", "box", Optional.empty(), "sh"),
                Terminal.opening(Terminal.Tty.ALLOCATED), Stdin.NOT_RECORDED, now));
        store.index(id, List.of(1.0, 2.0, 3.0), List.of("Permission denied", "all good", "100% done_"));
    }

    @AfterAll
    void stop() {
        klave.close();
    }

    private HttpResponse<String> search(String encodedQuery) {
        return klave.http().get("/api/recordings/search?q=" + encodedQuery, "Cookie", admin);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "%00%00", // NUL, NUL: SQLite read the pattern as ending there, and every line matched
        "%E2%80%8B%E2%80%8B", // zero-width spaces
        "%20%20", "%C2%A0%E3%80%80", // spaces, a no-break and an ideographic one
        "%01%1F", "%C2%80%C2%9F", // C0 and C1 controls
        "%EF%BB%BF%E2%80%AE", // a byte order mark, a right-to-left override
        "a%00", "%00a%E2%80%8B", "%20a%20", "a%CC%81", // one visible character among invisible ones
    })
    void aQueryWithFewerThanTwoVisibleCharactersIsRefused(String query) {
        HttpResponse<String> response = search(query);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).isEqualTo(REFUSED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"denied", "%00de%E2%80%8Bnied%00", "%20%20DENIED%C2%A0", "%E2%80%AEdenied"})
    void theVisibleTextIsSearchedForAndNothingElse(String query) throws Exception {
        HttpResponse<String> response = search(query);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(JSON.readTree(response.body()).findValuesAsText("line")).containsExactly("Permission denied");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0%25", "e_"})
    void patternCharactersAreLiteral(String query) throws Exception {
        JsonNode found = JSON.readTree(search(query).body());

        assertThat(found.findValuesAsText("line")).containsExactly("100% done_");
    }
}
