package dev.klave.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A bot with a grant on a simulated cluster and a credential: what an agent calls {@code /mcp} with. */
public final class TestingAgents {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestingAgents() {}

    /**
     * @param admin the administrator's session cookie
     * @param token the bot's {@code klt_} credential
     */
    public record Bot(String admin, String id, String login, String credentialId, String token) {}

    /**
     * Signs up {@code root} (administrator), bootstraps {@code cluster} as {@code clusterId} with the
     * namespace {@code team-a}, creates the bot {@code login} with {@code tier} on {@code scope},
     * waits for its binding, and issues it a 12 h credential.
     */
    public static Bot bot(TestingKlave klave, ClusterSimulator cluster, String clusterId, String login, String tier,
            String scope) {
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n"
                + "    pod-security.kubernetes.io/enforce: baseline\n");
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, clusterId);
        return another(klave, cluster, admin, clusterId, login, tier, scope);
    }

    /** One more bot on a cluster already bootstrapped. */
    public static Bot another(TestingKlave klave, ClusterSimulator cluster, String admin, String clusterId,
            String login, String tier, String scope) {
        TestingHttp http = klave.http();
        String id = read(expect(201, http.send("POST", "/api/subjects", "{\"kind\":\"bot\",\"login\":\"" + login
                + "\",\"display_name\":\"" + login + "\"}", "Cookie", admin))).get("id").asText();
        expect(201, http.send("POST", "/api/grants", "{\"subject_id\":\"" + id + "\",\"cluster_id\":\"" + clusterId
                + "\",\"tier\":\"" + tier + "\",\"scope\":\"" + scope + "\"}", "Cookie", admin));
        String binding = "klave-" + tier;
        String user = "bot:" + login;
        // Bindings name the grant's group; the impersonation role names the bot.
        Eventually.until("the " + tier + " binding and the bot's impersonation", Duration.ofSeconds(10),
                () -> (scope.equals("*") ? cluster.objects().get("clusterrolebindings", null, binding)
                        : cluster.objects().get("rolebindings", scope, binding)).isPresent()
                        && cluster.objects().get("clusterroles", null, "klave-impersonation")
                                .map(role -> role.toString().contains(user)).orElse(false));
        JsonNode issued = read(expect(201, http.send("POST", "/api/credentials", "{\"ttl\":\"12h\",\"subject_id\":\""
                + id + "\"}", "Cookie", admin)));
        return new Bot(admin, id, login, issued.get("id").asText(), issued.get("token").asText());
    }

    /** The deployment {@code web} in {@code team-a}, two replicas of nginx: what the agents' tests scale and restart. */
    public static void webDeployment(ClusterSimulator cluster) {
        cluster.objects().put("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: team-a}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: web, image: nginx}]}
                """);
    }

    private static HttpResponse<String> expect(int status, HttpResponse<String> response) {
        if (response.statusCode() != status) {
            throw new AssertionError("expected " + status + ": " + response.statusCode() + " " + response.body());
        }
        return response;
    }

    private static JsonNode read(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
