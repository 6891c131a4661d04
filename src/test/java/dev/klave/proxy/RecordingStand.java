package dev.klave.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.Kubectl;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.time.Duration;

/**
 * What the recorded sessions' tests stand on (issue 42): the cluster simulator with pod {@code box}
 * in {@code team-a}, Klave over HTTPS with {@code prod-1} bootstrapped, the administrator's cookie,
 * and eva — edit on team-a — with the real kubectl and her kubeconfig.
 */
record RecordingStand(ClusterSimulator cluster, TestingKlave klave, String admin, String eva, Kubectl kubectl,
        String evaToken) implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    static RecordingStand start() throws Exception {
        return start(settings -> settings);
    }

    static RecordingStand start(java.util.function.UnaryOperator<dev.klave.testing.TestingSettings> settings)
            throws Exception {
        ClusterSimulator cluster = ClusterSimulator.builder().start();
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n"
                + "    pod-security.kubernetes.io/enforce: baseline\n");
        cluster.objects().put("apiVersion: v1\nkind: Pod\nmetadata:\n  name: box\n  namespace: team-a\n"
                + "spec:\n  containers:\n  - name: app\n    image: busybox\n");
        TestingKlave klave = TestingKlave.startHttps(new TestingClock(), settings);
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        String eva = TestingPeople.signUp(klave, "eva", false);
        String id = JSON.readTree(klave.http().get("/api/me", "Cookie", eva).body()).get("id").asText();
        klave.http().send("POST", "/api/grants", "{\"subject_id\":\"" + id + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"edit\",\"scope\":\"team-a\"}", "Cookie", admin);
        Eventually.until("eva's binding", Duration.ofSeconds(10),
                () -> cluster.objects().get("rolebindings", "team-a", "klave-edit").isPresent());
        JsonNode issued = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie",
                eva).body());
        return new RecordingStand(cluster, klave, admin, eva, new Kubectl(issued.get("kubeconfig").asText()),
                issued.get("token").asText());
    }

    /** Sets prod-1's recording policy (and whether stdin is recorded). */
    void policy(String policy) {
        var set = klave.http().send("PUT", "/api/clusters/prod-1/recording", "{\"policy\":\"" + policy + "\"}",
                "Cookie", admin);
        if (set.statusCode() != 200) {
            throw new AssertionError("policy " + policy + ": " + set.body());
        }
    }

    /** The ended recording whose command is {@code command} (the newest). */
    JsonNode recordingOf(String command) throws Exception {
        return Eventually.value("the recording of " + command, Duration.ofSeconds(15), () -> {
            klave.hooks().flushRecordings();
            for (JsonNode recording : JSON.readTree(klave.http().get("/api/recordings", "Cookie", admin).body())) {
                if (recording.get("command").asText().equals(command) && !recording.get("ended_at").isNull()) {
                    return java.util.Optional.of(recording);
                }
            }
            return java.util.Optional.empty();
        });
    }

    /** What a recording's cast shows as output. */
    String output(String id) throws Exception {
        var cast = klave.http().get("/api/recordings/" + id + "/cast", "Cookie", admin);
        StringBuilder text = new StringBuilder();
        String[] lines = cast.body().split("\n");
        for (int i = 1; i < lines.length; i++) {
            JsonNode event = JSON.readTree(lines[i]);
            if (event.get(1).asText().equals("o")) {
                text.append(event.get(2).asText());
            }
        }
        return text.toString();
    }

    @Override
    public void close() {
        kubectl.close();
        klave.close();
        cluster.close();
    }
}
