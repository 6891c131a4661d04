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
record RecordingStand(ClusterSimulator cluster, TestingKlave klave, String admin, String eva, Kubectl kubectl)
        implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    static RecordingStand start() throws Exception {
        ClusterSimulator cluster = ClusterSimulator.builder().start();
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n"
                + "    pod-security.kubernetes.io/enforce: baseline\n");
        cluster.objects().put("apiVersion: v1\nkind: Pod\nmetadata:\n  name: box\n  namespace: team-a\n"
                + "spec:\n  containers:\n  - name: app\n    image: busybox\n");
        TestingKlave klave = TestingKlave.startHttps(new TestingClock(), settings -> settings);
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
        return new RecordingStand(cluster, klave, admin, eva, new Kubectl(issued.get("kubeconfig").asText()));
    }

    @Override
    public void close() {
        kubectl.close();
        klave.close();
        cluster.close();
    }
}
