package dev.klave.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The access most proxy tests start from: a bootstrapped cluster and a person who may read it. */
public final class TestingAccess {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestingAccess() {}

    /**
     * The administrator's and ana's session cookies, and ana's 12 h credential.
     *
     * @param token the {@code klt_} token, shown once
     */
    public record Viewer(String admin, String cookie, String credentialId, String token) {}

    /**
     * Signs up {@code root} (administrator) and {@code ana}, bootstraps {@code cluster} as
     * {@code prod-1} with namespace {@code team-a}, gives ana {@code view} on all of it, waits until
     * the cluster has the binding, and issues her a 12 h credential.
     */
    public static Viewer viewer(TestingKlave klave, ClusterSimulator cluster) {
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n");
        TestingHttp http = klave.http();
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        String ana = TestingPeople.signUp(klave, "ana", false);
        String anaId = read(http.get("/api/me", "Cookie", ana)).get("id").asText();
        HttpResponse<String> granted = http.send("POST", "/api/grants", "{\"subject_id\":\"" + anaId
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin);
        if (granted.statusCode() != 201) {
            throw new AssertionError("grant refused: " + granted.body());
        }
        Eventually.until("the view binding in the cluster", Duration.ofSeconds(10),
                () -> cluster.objects().get("clusterrolebindings", null, "klave-view").isPresent());
        JsonNode issued = read(http.send("POST", "/api/credentials", "{\"ttl\":\"12h\"}", "Cookie", ana));
        return new Viewer(admin, ana, issued.get("id").asText(), issued.get("token").asText());
    }

    private static JsonNode read(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
