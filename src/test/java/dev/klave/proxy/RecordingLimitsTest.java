package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.Kubectl;
import dev.klave.testing.Eventually;
import dev.klave.testing.RawWebSocket;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51 §3, §14 and §17 with the real kubectl: the cap stops what reaches the client where
 * recording is required; one person's share of the quota keeps them from filling it for everyone,
 * counted as chunks are taken; an administrator deletes a recording (an event) and its room is
 * free at once; a refused session says why and when to try again; stdin is recorded only where the
 * cluster asks for it. A cap of 1 MiB, shares of 2 MiB, a quota of 4 MiB.
 */
class RecordingLimitsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MIB = 1 << 20;

    private RecordingStand stand;

    @BeforeEach
    void start() throws Exception {
        stand = RecordingStand.start(settings -> settings.with("SERVICE_RECORDING_CAP_MIB", "1")
                .with("SERVICE_RECORDING_SHARE_MIB", "2").with("SERVICE_RECORDING_QUOTA_MIB", "4"));
    }

    @AfterEach
    void stop() {
        stand.close();
    }

    /** {@code size} bytes of text in lines of 100. */
    private static String lines(int size) {
        StringBuilder text = new StringBuilder(size);
        while (text.length() + 100 <= size) {
            text.append("x".repeat(99)).append('\n');
        }
        return text.toString();
    }

    private JsonNode recordings() throws Exception {
        stand.klave().hooks().flushRecordings();
        return JSON.readTree(stand.klave().http().get("/api/recordings", "Cookie", stand.admin()).body());
    }

    @Test
    void underRequiredNothingPastTheCapReachesTheClient() throws Exception {
        stand.policy("required");
        Kubectl.Result result = stand.kubectl().run(Map.of(), lines(3 * MIB), "exec", "-i", "box", "-n", "team-a",
                "--", "cat");

        assertThat(result.stdout().length()).as("what reached the terminal").isPositive().isLessThanOrEqualTo(MIB);
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderr()).contains("la grabación de esta sesión falló y este cluster la exige");
        JsonNode recording = stand.recordingOf("cat");
        assertThat(recording.get("state").asText()).isEqualTo("truncated");
    }

    @Test
    void onePersonsShareKeepsThemFromFillingTheQuotaAndADeleteFreesItAtOnce() throws Exception {
        // Under "on", three sessions of 800 KiB each, under the cap: the third stops at eva's share, saying why.
        for (int session = 0; session < 3; session++) {
            Kubectl.Result result = stand.kubectl().run(Map.of(), lines(800 * 1024), "exec", "-i", "box", "-n",
                    "team-a", "--", "cat");
            assertThat(result.exitCode()).as(result.stderr()).isZero();
        }
        Eventually.until("the three recordings ended", Duration.ofSeconds(15), () -> {
            JsonNode all = recordings();
            for (JsonNode one : all) {
                if (one.get("ended_at").isNull()) {
                    return false;
                }
            }
            return all.size() == 3;
        });
        JsonNode all = recordings();
        long stored = 0;
        for (JsonNode one : all) {
            stored += one.get("bytes").asLong();
        }
        assertThat(stored).as("counted as chunks are taken: at most one chunk over the share")
                .isLessThanOrEqualTo(2L * MIB + 16 * 1024);
        assertThat(all.findValuesAsText("reason")).anySatisfy(reason -> assertThat(reason)
                .contains("llegaron a su parte de la cuota"));

        // Under "required" eva's next session is refused with the reason and when to try again…
        stand.policy("required");
        try (RawWebSocket refused = RawWebSocket.open(stand.klave().http().tls(), stand.klave().port(), "GET",
                "/clusters/prod-1/api/v1/namespaces/team-a/pods/box/exec?command=id&stdout=true",
                Map.of("Authorization", "Bearer " + stand.evaToken(), "Sec-WebSocket-Protocol",
                        "v5.channel.k8s.io"))) {
            assertThat(refused.answer().status()).isEqualTo(503);
            assertThat(refused.answer().body()).contains("tus grabaciones llegaron a tu parte de la cuota (2 MiB)");
            assertThat(refused.answer().header("Retry-After")).hasValueSatisfying(seconds ->
                    assertThat(Long.parseLong(seconds)).isGreaterThanOrEqualTo(30));
        }
        // …while someone else's is recorded.
        String rita = TestingPeople.signUp(stand.klave(), "rita", false);
        String ritaId = JSON.readTree(stand.klave().http().get("/api/me", "Cookie", rita).body()).get("id").asText();
        stand.klave().http().send("POST", "/api/grants", "{\"subject_id\":\"" + ritaId + "\",\"cluster_id\":"
                + "\"prod-1\",\"tier\":\"edit\",\"scope\":\"team-a\"}", "Cookie", stand.admin());
        Kubectl ritaKubectl = new Kubectl(JSON.readTree(stand.klave().http().send("POST", "/api/credentials",
                "{\"ttl\":\"1h\"}", "Cookie", rita).body()).get("kubeconfig").asText());
        try {
            Kubectl.Result hers = ritaKubectl.run(Map.of(), "", "exec", "box", "-n", "team-a", "--", "echo", "rita");
            assertThat(hers.exitCode()).as(hers.stderr()).isZero();
        } finally {
            ritaKubectl.close();
        }

        // An administrator deletes one of eva's: an event, and her room is free at once.
        String first = all.get(0).get("id").asText();
        HttpResponse<String> notHers = stand.klave().http().send("DELETE", "/api/recordings/" + first, "",
                "Cookie", stand.eva());
        assertThat(notHers.statusCode()).isEqualTo(403);
        assertThat(stand.klave().http().send("DELETE", "/api/recordings/ninguna", "", "Cookie", stand.admin())
                .statusCode()).isEqualTo(404);
        assertThat(stand.klave().http().send("DELETE", "/api/recordings/" + first, "", "Cookie", stand.admin())
                .statusCode()).isEqualTo(204);
        assertThat(stand.klave().http().get("/api/recordings/" + first, "Cookie", stand.admin()).statusCode())
                .isEqualTo(404);
        assertThat(stand.klave().http().get("/api/control-events?type=recording.delete", "Cookie", stand.admin())
                .body()).contains(first);
        Kubectl.Result again = stand.kubectl().run(Map.of(), "", "exec", "box", "-n", "team-a", "--", "echo", "otra");
        assertThat(again.exitCode()).as(again.stderr()).isZero();
    }

    @Test
    void aRunningSessionsRecordingCannotBeDeleted() throws Exception {
        Process session = stand.kubectl().start(Map.of(), "exec", "-i", "box", "-n", "team-a", "--", "cat");
        try {
            String id = Eventually.value("the running recording", Duration.ofSeconds(10), () -> {
                JsonNode all = recordings();
                return all.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(all.get(0).get("id").asText());
            });
            HttpResponse<String> refused = stand.klave().http().send("DELETE", "/api/recordings/" + id, "", "Cookie",
                    stand.admin());
            assertThat(refused.statusCode()).isEqualTo(409);
            assertThat(refused.body()).contains("la sesión sigue en curso");
        } finally {
            session.getOutputStream().close();
            session.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void stdinIsRecordedOnlyWhereTheClusterAsksForIt() throws Exception {
        assertThat(JSON.readTree(stand.klave().http().get("/api/clusters/prod-1/recording", "Cookie", stand.admin())
                .body()).get("stdin").asBoolean()).as("off by default").isFalse();
        stand.kubectl().run(Map.of(), "sin-teclas\n", "exec", "-i", "box", "-n", "team-a", "--", "cat");
        JsonNode without = stand.recordingOf("cat");
        assertThat(without.get("stdin_recorded").asBoolean()).isFalse();
        assertThat(cast(without.get("id").asText())).doesNotContain("\"i\"");

        HttpResponse<String> set = stand.klave().http().send("PUT", "/api/clusters/prod-1/recording",
                "{\"policy\":\"on\",\"stdin\":true}", "Cookie", stand.admin());
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        assertThat(JSON.readTree(set.body()).get("stdin").asBoolean()).isTrue();
        assertThat(stand.klave().http().get("/api/control-events?type=recording.policy_update", "Cookie",
                stand.admin()).body()).contains("\"stdin\":\"true\"");
        stand.kubectl().run(Map.of(), "tecleado\n", "exec", "-i", "box", "-n", "team-a", "--", "cat", "-");
        JsonNode with = stand.recordingOf("cat -");
        assertThat(with.get("stdin_recorded").asBoolean()).isTrue();
        assertThat(cast(with.get("id").asText())).contains("\"i\",\"tecleado");
    }

    private String cast(String id) {
        return stand.klave().http().get("/api/recordings/" + id + "/cast", "Cookie", stand.admin()).body();
    }
}
