package dev.klave.agent.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.config.DatabaseUrl;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import dev.klave.testing.TestingPostgres;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51 §19: two replicas, one PostgreSQL, two people giving the first of two approvals at the
 * same moment. Both count — they are two approvals: the request is approved, each approval named,
 * and neither person was told "la solicitud ya no está pendiente" (the second waits for the first's
 * row, then reads it as the first).
 */
class TwoFirstApprovalsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ROUNDS = 6;

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

    @Test
    void twoFirstApprovalsAtOnceOnTwoReplicasAreTwoApprovals() throws Exception {
        TestingHttp one = first.http();
        TestingHttp two = second.http();
        String root = TestingPeople.signUp(first, "root", true);
        String ana = TestingPeople.signUp(first, "ana", false);
        String luis = TestingPeople.signUp(first, "luis", false);
        String eva = TestingPeople.signUp(first, "eva", false);
        String anaId = JSON.readTree(one.get("/api/me", "Cookie", ana).body()).get("id").asText();
        String luisId = JSON.readTree(one.get("/api/me", "Cookie", luis).body()).get("id").asText();
        one.send("POST", "/api/clusters", "{\"id\":\"prod-1\",\"name\":\"Producción\"}", "Cookie", root);
        one.send("PUT", "/api/access/policies/prod-1", "{\"max_minutes\":480,\"two_approvals\":true,\"deciders\":[\""
                + anaId + "\",\"" + luisId + "\"]}", "Cookie", root);

        for (int round = 0; round < ROUNDS; round++) {
            HttpResponse<String> asked = one.send("POST", "/api/access/requests", "{\"cluster_id\":\"prod-1\","
                    + "\"tier\":\"admin\",\"scope\":\"*\",\"minutes\":30,\"reason\":\"ronda " + round + "\"}",
                    "Cookie", eva);
            assertThat(asked.statusCode()).as(asked.body()).isEqualTo(201);
            String id = JSON.readTree(asked.body()).get("id").asText();
            CyclicBarrier together = new CyclicBarrier(2);
            CompletableFuture<HttpResponse<String>> byAna = CompletableFuture.supplyAsync(() -> {
                await(together);
                return one.send("POST", "/api/access/requests/" + id + "/approve", null, "Cookie", ana);
            });
            CompletableFuture<HttpResponse<String>> byLuis = CompletableFuture.supplyAsync(() -> {
                await(together);
                return two.send("POST", "/api/access/requests/" + id + "/approve", null, "Cookie", luis);
            });

            for (HttpResponse<String> answer : List.of(byAna.get(), byLuis.get())) {
                assertThat(answer.statusCode()).as("round " + round + ": " + answer.body()).isEqualTo(200);
            }
            JsonNode request = JSON.readTree(one.get("/api/access/requests/" + id, "Cookie", root).body())
                    .get("request");
            assertThat(request.get("status").asText()).as("round " + round).isEqualTo("approved");
            assertThat(List.of(request.get("first_approval").get("by").asText(), request.get("decided_by").asText()))
                    .containsExactlyInAnyOrder("ana", "luis");
            // The next round asks anew: end this access so she may.
            one.send("POST", "/api/access/requests/" + id + "/end", null, "Cookie", eva);
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
