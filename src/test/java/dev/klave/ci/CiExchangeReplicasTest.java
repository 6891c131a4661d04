package dev.klave.ci;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.config.DatabaseUrl;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingActionsIssuer;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingPostgres;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two replicas on one PostgreSQL: an ID token exchanged on one is refused on the other, and two
 * replicas racing on one token issue one credential (spec 1 §4 "CI exchange rules" 1); racing on
 * one trust rule, they store it once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CiExchangeReplicasTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ROUTE = "/v1/ci/forge-actions/token";
    private static final String BASE_URL = "https://klave.example.test";

    private final TestingClock clock = new TestingClock(Instant.now());
    private DatabaseUrl.Postgres database;
    private ClusterSimulator cluster;
    private TestingActionsIssuer issuer;
    private TestingKlave first;
    private TestingKlave second;
    private String admin;
    private String botId;

    @BeforeAll
    void start() throws Exception {
        database = TestingPostgres.freshDatabase();
        cluster = ClusterSimulator.builder().start();
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n");
        issuer = TestingActionsIssuer.start(clock);
        UnaryOperator<dev.klave.testing.TestingSettings> settings = s -> s
                .with("SERVICE_BASE_URL", BASE_URL)
                .with("SERVICE_CI_ISSUER", issuer.issuer());
        first = TestingKlave.startOn(database, clock, settings);
        second = TestingKlave.startOn(database, clock, settings);
        admin = TestingPeople.signUp(first, "root", true);
        TestingClusters.bootstrap(first, admin, cluster, "shared-1");
        HttpResponse<String> bot = first.http().send("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"ci\"}",
                "Cookie", admin);
        botId = JSON.readTree(bot.body()).get("id").asText();
        assertThat(first.http().send("POST", "/api/grants", "{\"subject_id\":\"" + botId
                + "\",\"cluster_id\":\"shared-1\",\"tier\":\"view\",\"scope\":\"team-a\"}", "Cookie", admin)
                .statusCode()).isEqualTo(201);
        assertThat(first.http().send("POST", "/api/ci/trust-rules", "{\"name\":\"r\",\"bot_subject_id\":\"" + botId
                + "\",\"repository_owner_id\":" + TestingActionsIssuer.OWNER_ID + ",\"repository_id\":"
                + TestingActionsIssuer.REPOSITORY_ID + "}", "Cookie", admin).statusCode()).isEqualTo(201);
    }

    @AfterAll
    void stop() {
        second.close();
        first.close();
        issuer.close();
        cluster.close();
        TestingPostgres.drop(database);
    }

    private static HttpResponse<String> exchange(TestingKlave klave, String token) {
        return klave.http().send("POST", ROUTE, JSON.createObjectNode().put("token", token).toString());
    }

    @Test
    void tokenExchangedOnOneReplicaIsRefusedOnTheOther() throws Exception {
        String token = issuer.sign(issuer.claims(BASE_URL));

        assertThat(exchange(first, token).statusCode()).isEqualTo(201);

        HttpResponse<String> replayed = exchange(second, token);
        assertThat(replayed.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(replayed.body()).get("error").asText()).isEqualTo("token no válido");
    }

    @Test
    void replicasRacingOnOneTokenIssueOneCredential() throws Exception {
        for (int round = 0; round < 5; round++) {
            String token = issuer.sign(issuer.claims(BASE_URL));
            List<Callable<Integer>> attempts = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                TestingKlave replica = i % 2 == 0 ? first : second;
                attempts.add(() -> exchange(replica, token).statusCode());
            }
            List<Integer> statuses = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
                for (Future<Integer> status : pool.invokeAll(attempts)) {
                    statuses.add(status.get());
                }
            }
            assertThat(statuses).as("round " + round).containsOnly(201, 401);
            assertThat(statuses.stream().filter(status -> status == 201).count()).as("round " + round).isEqualTo(1);
        }
    }

    @Test
    void replicasRacingOnOneTrustRuleStoreItOnce() throws Exception {
        for (int round = 0; round < 5; round++) {
            List<Callable<HttpResponse<String>>> attempts = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                TestingKlave replica = i % 2 == 0 ? first : second;
                String body = "{\"name\":\"race " + round + "-" + i + "\",\"bot_subject_id\":\"" + botId
                        + "\",\"repository_owner_id\":1,\"repository_id\":" + (8_100_000 + round)
                        + ",\"ref\":\"refs/heads/main\"}";
                attempts.add(() -> replica.http().send("POST", "/api/ci/trust-rules", body, "Cookie", admin));
            }
            List<HttpResponse<String>> answers = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
                for (Future<HttpResponse<String>> answer : pool.invokeAll(attempts)) {
                    answers.add(answer.get());
                }
            }
            List<HttpResponse<String>> stored = answers.stream().filter(answer -> answer.statusCode() == 201).toList();
            assertThat(stored).as("round " + round).hasSize(1);
            String winner = JSON.readTree(stored.getFirst().body()).get("name").asText();
            for (HttpResponse<String> answer : answers) {
                if (answer != stored.getFirst()) {
                    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(409);
                    assertThat(JSON.readTree(answer.body()).get("error").asText())
                            .isEqualTo("ya hay una trust rule igual: «" + winner + "»");
                }
            }
        }
    }
}
