package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.simulator.Kubectl;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingClusters;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingPeople;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A cluster's recording policy (issue 42) with the real kubectl: {@code off} records nothing;
 * {@code required} refuses a session it cannot record (SPDY, not read yet) before the cluster sees
 * it, and ends one whose recording fails mid-way with a clear message on the terminal's error
 * channel; {@code on} lets that session go on. Set by administrators only, each change an event.
 */
class RecordingPolicyTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static void policy(RecordingStand stand, String policy) {
        HttpResponse<String> set = stand.klave().http().send("PUT", "/api/clusters/prod-1/recording",
                "{\"policy\":\"" + policy + "\"}", "Cookie", stand.admin());
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    }

    private static int recordings(RecordingStand stand) throws Exception {
        stand.klave().hooks().flushRecordings();
        return JSON.readTree(stand.klave().http().get("/api/recordings", "Cookie", stand.admin()).body()).size();
    }

    @Test
    void offRecordsNothingAndRequiredRecordsBothTransports() throws Exception {
        try (RecordingStand stand = RecordingStand.start()) {
            assertThat(stand.klave().http().send("PUT", "/api/clusters/prod-1/recording", "{\"policy\":\"sometimes\"}",
                    "Cookie", stand.admin()).statusCode()).isEqualTo(400);
            assertThat(stand.klave().http().send("PUT", "/api/clusters/nope/recording", "{\"policy\":\"off\"}",
                    "Cookie", stand.admin()).statusCode()).isEqualTo(404);
            assertThat(JSON.readTree(stand.klave().http().get("/api/clusters/prod-1/recording", "Cookie",
                    stand.admin()).body()).get("policy").asText()).as("the default").isEqualTo("on");

            policy(stand, "off");
            assertThat(stand.kubectl().run(Map.of(), "", "exec", "box", "-n", "team-a", "--", "echo", "sin", "grabar")
                    .exitCode()).isZero();
            assertThat(recordings(stand)).isZero();

            policy(stand, "required");
            Kubectl.Result spdy = stand.kubectl().run(Map.of("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "false"), "", "exec",
                    "box", "-n", "team-a", "--", "echo", "por", "spdy");
            assertThat(spdy.exitCode()).as(spdy.stderr()).isZero();
            Kubectl.Result websocket = stand.kubectl().run(Map.of(), "", "exec", "box", "-n", "team-a", "--", "echo",
                    "grabada");
            assertThat(websocket.exitCode()).as(websocket.stderr()).isZero();
            assertThat(recordings(stand)).as("both transports recorded").isEqualTo(2);
            assertThat(stand.klave().http().get("/api/control-events?type=recording.policy_update", "Cookie",
                    stand.admin()).body()).contains("required");
        }
    }

    @Test
    void aRequiredRecordingThatFailsMidWayEndsTheSessionWithAClearMessage() throws Exception {
        try (RecordingStand stand = RecordingStand.start()) {
            policy(stand, "required");
            Process session = stand.kubectl().start(Map.of(), "exec", "-i", "box", "-n", "team-a", "--", "cat");
            Eventually.until("the session open", Duration.ofSeconds(10), () -> stand.cluster().requests().stream()
                    .anyMatch(request -> request.path().endsWith("/exec")));
            // The database stops taking recordings: the table is gone.
            dropRecordings(stand);
            session.getOutputStream().write("hola\n".getBytes(StandardCharsets.UTF_8));
            session.getOutputStream().flush();
            Kubectl.Result probe = stand.kubectl().run(Map.of(), "", "exec", "box", "-n", "team-a", "--", "echo", "x");

            assertThat(probe.exitCode()).as("a new session cannot be recorded either").isNotZero();
            assertThat(session.waitFor(15, TimeUnit.SECONDS)).as("the open session ended").isTrue();
            assertThat(session.exitValue()).isNotZero();
            assertThat(stand.kubectl().read(session, "stderr") + probe.stderr())
                    .contains("la grabación de esta sesión falló y este cluster la exige");
        }
    }

    @Test
    void anOnRecordingThatFailsLetsTheSessionGoOn() throws Exception {
        try (RecordingStand stand = RecordingStand.start()) {
            dropRecordings(stand);
            Kubectl.Result result = stand.kubectl().run(Map.of(), "", "exec", "box", "-n", "team-a", "--", "echo",
                    "sigue");
            assertThat(result.exitCode()).as(result.stderr()).isZero();
            assertThat(result.stdout()).isEqualTo("sigue\n");
            // The session's audit row says its recording is not whole.
            Eventually.until("the exec row saying so", Duration.ofSeconds(10), () -> {
                for (JsonNode row : JSON.readTree(stand.klave().http().get("/api/audit?namespace=team-a", "Cookie",
                        stand.admin()).body()).get("events")) {
                    if (row.get("path").asText().contains("/exec") && !row.get("error").isNull()
                            && row.get("error").asText().startsWith("sesión grabada solo en parte")) {
                        return true;
                    }
                }
                return false;
            });
        }
    }

    private static void dropRecordings(RecordingStand stand) {
        stand.klave().klave().database().inTransaction(() -> stand.klave().klave().database().withHandle(handle ->
                handle.execute("DROP TABLE recording_chunks")) + stand.klave().klave().database().withHandle(handle ->
                handle.execute("DROP TABLE recordings")));
    }
}
