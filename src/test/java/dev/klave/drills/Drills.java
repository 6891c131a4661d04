package dev.klave.drills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** What every drill needs first: a cluster, a person with a view grant on it, and her credential. */
final class Drills {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Drills() {}

    /** The administrator's session cookie and ana's {@code klt_} token. */
    record People(String admin, String token) {}

    static People prepare(TestingKlave klave, ClusterSimulator cluster) throws Exception {
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n");
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        String ana = TestingPeople.signUp(klave, "ana", false);
        String anaId = JSON.readTree(klave.http().get("/api/me", "Cookie", ana).body()).get("id").asText();
        HttpResponse<String> granted = klave.http().send("POST", "/api/grants", "{\"subject_id\":\"" + anaId
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin);
        assertThat(granted.statusCode()).as(granted.body()).isEqualTo(201);
        await("the view binding is in the cluster", Duration.ofSeconds(10),
                () -> cluster.objects().get("clusterrolebindings", null, "klave-view").isPresent());
        JsonNode issued = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"12h\"}", "Cookie",
                ana).body());
        return new People(admin, issued.get("token").asText());
    }

    /** Waits for {@code condition}, failing with {@code what} when it does not come in time. */
    static void await(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(limit);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out after " + limit + " waiting until " + what);
            }
            Thread.sleep(20);
        }
    }
}
