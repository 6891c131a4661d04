package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A Secret's data is answered as stored, on every read and write; stringData is folded into it and never stored. */
class SecretDataTest {
    private static final String SECRETS = "/api/v1/namespaces/default/secrets";

    private static ClusterSimulator cluster;
    private static SimulatorClient admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder().start();
        admin = new SimulatorClient(cluster, cluster.adminToken());
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void stringDataIsEncodedIntoDataReplacingTheSameKey() {
        SimulatorClient.Response created = admin.send("POST", SECRETS, """
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},
                 "data":{"user":"YWRtaW4=","password":"b2xk"},"stringData":{"password":"s3cret"}}""", Map.of());

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().path("data").toString()).isEqualTo("{\"user\":\"YWRtaW4=\",\"password\":\"czNjcmV0\"}");
        assertThat(created.json().has("stringData")).isFalse();
        assertThat(created.json().path("type").asText()).isEqualTo("Opaque");
        assertThat(cluster.objects().get("secrets", "default", "db").orElseThrow().has("stringData")).isFalse();
    }

    @Test
    void getListAndApplyAnswerTheDataAsStored() {
        SimulatorClient.Response applied = admin.send("PATCH", SECRETS + "/token?fieldManager=tool",
                "apiVersion: v1\nkind: Secret\nmetadata: {name: token}\ndata: {token: dG9rLTE=}\nstringData: {extra: plain}\n",
                Map.of("Content-Type", "application/apply-patch+yaml"));
        ObjectNode got = admin.get(SECRETS + "/token").json();
        ObjectNode list = admin.get(SECRETS + "?fieldSelector=metadata.name%3Dtoken").json();

        assertThat(applied.status()).as(applied.body()).isEqualTo(201);
        assertThat(applied.json().path("data").toString()).isEqualTo("{\"token\":\"dG9rLTE=\",\"extra\":\"cGxhaW4=\"}");
        assertThat(got.path("data")).isEqualTo(applied.json().path("data"));
        assertThat(list.at("/items/0/data")).isEqualTo(applied.json().path("data"));
    }
}
