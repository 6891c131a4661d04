package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy's 502 texts (spec 1 §7) when the cluster is away or not who its CA says. */
class ProxyUpstreamFailuresTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClusterSimulator cluster;
    private TestingKlave klave;
    private String token;

    @BeforeEach
    void start() throws Exception {
        cluster = ClusterSimulator.builder().start();
        klave = TestingKlave.start(new TestingClock(), settings -> settings.with("SERVICE_PROXY_QUEUE_TIMEOUT", "1s"));
        String admin = TestingPeople.signUp(klave, "root", true);
        TestingClusters.bootstrap(klave, admin, cluster, "prod-1");
        String ana = TestingPeople.signUp(klave, "ana", false);
        String anaId = JSON.readTree(klave.http().get("/api/me", "Cookie", ana).body()).get("id").asText();
        klave.http().send("POST", "/api/grants", "{\"subject_id\":\"" + anaId + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"view\",\"scope\":\"*\"}", "Cookie", admin);
        token = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie", ana).body())
                .get("token").asText();
    }

    @AfterEach
    void stop() {
        klave.close();
        cluster.close();
    }

    private JsonNode status(HttpResponse<String> response) throws Exception {
        assertThat(response.headers().firstValue("Audit-ID")).isPresent();
        return JSON.readTree(response.body());
    }

    @Test
    void clusterThatRefusesConnectionsIsUnreachable() throws Exception {
        cluster.down();

        HttpResponse<String> response = klave.http().get("/clusters/prod-1/api/v1/namespaces",
                "Authorization", "Bearer " + token);

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(status(response).get("message").asText())
                .isEqualTo("no se pudo hablar con el API server del cluster: API server inalcanzable");
    }

    @Test
    void certificateFromAnotherCaIsAMismatch() throws Exception {
        cluster.wrongCertificate();

        HttpResponse<String> response = klave.http().get("/clusters/prod-1/api/v1/namespaces",
                "Authorization", "Bearer " + token);

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(status(response).get("message").asText()).isEqualTo("no se pudo hablar con el API server del "
                + "cluster: el certificado del API server no coincide con la CA registrada");
        assertThat(status(response).get("reason").asText()).isEqualTo("BadGateway");
    }

    @Test
    void aClusterThatNeverAnswersTheHandshakeTimesOutAndIsNotCalledBusy() throws Exception {
        cluster.silent();

        HttpResponse<String> response = klave.http().get("/clusters/prod-1/api/v1/namespaces",
                "Authorization", "Bearer " + token);

        // The pool's one timer (1 s here) ran out while connecting, with nothing else in flight:
        // the cluster is slow to reach, not Klave's connections to it all taken.
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("Retry-After")).isEmpty();
        assertThat(status(response).get("message").asText())
                .isEqualTo("no se pudo hablar con el API server del cluster: tiempo de espera agotado");
    }
}
