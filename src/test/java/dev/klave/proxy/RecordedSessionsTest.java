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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Recorded sessions, first part (issue 42): the real kubectl's exec through Klave over WebSocket is
 * recorded as asciicast v2 — the output the person saw, stdout and stderr, the exit status — and
 * the recording replays the same text; its owner and administrators read it, nobody else, and
 * reading it is an event. Over SPDY/3.1 (kubectl's fallback) alike.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecordedSessionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RecordingStand stand;
    private ClusterSimulator cluster;
    private TestingKlave klave;
    private String admin;
    private String eva;
    private Kubectl kubectl;

    @BeforeAll
    void start() throws Exception {
        stand = RecordingStand.start();
        cluster = stand.cluster();
        klave = stand.klave();
        admin = stand.admin();
        eva = stand.eva();
        kubectl = stand.kubectl();
    }

    @AfterAll
    void stop() {
        stand.close();
    }

    private JsonNode recordingOf(String command) throws Exception {
        klave.hooks().flushRecordings();
        return Eventually.value("the recording of " + command, Duration.ofSeconds(10), () -> {
            for (JsonNode recording : JSON.readTree(klave.http().get("/api/recordings", "Cookie", admin).body())) {
                if (recording.get("command").asText().equals(command) && !recording.get("ended_at").isNull()) {
                    return java.util.Optional.of(recording);
                }
            }
            klave.hooks().flushRecordings();
            return java.util.Optional.empty();
        });
    }

    /** The cast's lines: the header, then each event. */
    private List<JsonNode> cast(String id, String cookie) throws Exception {
        HttpResponse<String> cast = klave.http().get("/api/recordings/" + id + "/cast", "Cookie", cookie);
        assertThat(cast.statusCode()).as(cast.body()).isEqualTo(200);
        assertThat(cast.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("application/x-asciicast"));
        List<JsonNode> lines = new ArrayList<>();
        for (String line : cast.body().split("\n")) {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }

    private static String output(List<JsonNode> lines) {
        StringBuilder text = new StringBuilder();
        lines.stream().skip(1).filter(event -> event.get(1).asText().equals("o"))
                .forEach(event -> text.append(event.get(2).asText()));
        return text.toString();
    }

    @Test
    void anExecOverWebSocketIsRecordedAndReplaysWhatThePersonSaw() throws Exception {
        Kubectl.Result result = kubectl.run(Map.of(), "", "exec", "box", "-n", "team-a", "--", "sh", "-c",
                "echo out; echo oops >&2");
        assertThat(result.exitCode()).as(result.stderr()).isZero();

        JsonNode recording = recordingOf("sh -c echo out; echo oops >&2");
        assertThat(recording.get("state").asText()).isEqualTo("complete");
        assertThat(recording.get("subject").asText()).isEqualTo("eva");
        assertThat(recording.get("namespace").asText() + "/" + recording.get("pod").asText()).isEqualTo("team-a/box");
        assertThat(recording.get("exit_code").asInt()).isZero();

        List<JsonNode> lines = cast(recording.get("id").asText(), eva);
        JsonNode header = lines.get(0);
        assertThat(header.get("version").asInt()).isEqualTo(2);
        assertThat(header.get("width").asInt()).isPositive();
        assertThat(header.get("klave").get("audit_id").asText()).isEqualTo(recording.get("id").asText());
        assertThat(output(lines)).as("stdout and stderr, as kubectl printed them")
                .contains(result.stdout()).contains("oops");
        assertThat(lines.stream().skip(1).allMatch(event -> event.isArray() && event.size() == 3
                && event.get(0).isNumber())).as("every event [time, code, data]").isTrue();
        assertThat(lines.get(lines.size() - 1).get(2).asText()).isEqualTo("exit 0");
        assertThat(klave.http().get("/api/control-events?type=recording.view", "Cookie", admin).body())
                .contains(recording.get("id").asText());

        // Search in what sessions printed: the line, its session, its moment; nobody else's.
        JsonNode found = JSON.readTree(klave.http().get("/api/recordings/search?q=OOPS", "Cookie", eva).body());
        assertThat(found.findValuesAsText("line")).contains("oops");
        assertThat(found.get(0).get("recording").get("id").asText()).isEqualTo(recording.get("id").asText());
        assertThat(found.get(0).get("at").asDouble()).isGreaterThanOrEqualTo(0);
        String other = TestingPeople.signUp(klave, "ajena", false);
        assertThat(JSON.readTree(klave.http().get("/api/recordings/search?q=oops", "Cookie", other).body()).size())
                .isZero();
        assertThat(klave.http().get("/api/recordings/search?q=o", "Cookie", eva).statusCode()).isEqualTo(400);
    }

    @Test
    void theExitStatusIsKeptAndNobodyElseReadsTheRecording() throws Exception {
        Kubectl.Result result = kubectl.run(Map.of(), "", "exec", "box", "-n", "team-a", "--", "sh", "-c", "exit 3");
        assertThat(result.exitCode()).isEqualTo(3);

        JsonNode recording = recordingOf("sh -c exit 3");
        assertThat(recording.get("exit_code").asInt()).isEqualTo(3);
        String other = TestingPeople.signUp(klave, "otro", false);
        assertThat(klave.http().get("/api/recordings/" + recording.get("id").asText(), "Cookie", other).statusCode())
                .isEqualTo(404);
        assertThat(klave.http().get("/api/recordings/" + recording.get("id").asText() + "/cast", "Cookie", other)
                .statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(klave.http().get("/api/recordings", "Cookie", other).body()).size()).isZero();
    }

    @Test
    void anExecOverSpdyIsRecordedToo() throws Exception {
        Kubectl.Result result = kubectl.run(Map.of("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "false"), "", "exec", "box",
                "-n", "team-a", "--", "sh", "-c", "echo por spdy; echo y mal >&2; exit 4");
        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(4);
        assertThat(result.stdout()).isEqualTo("por spdy\n");

        JsonNode recording = recordingOf("sh -c echo por spdy; echo y mal >&2; exit 4");
        assertThat(recording.get("state").asText()).isEqualTo("complete");
        assertThat(recording.get("exit_code").asInt()).isEqualTo(4);
        List<JsonNode> lines = cast(recording.get("id").asText(), admin);
        assertThat(output(lines)).contains("por spdy\n").contains("y mal\n");
    }

    @Test
    void aSessionCutByRevocationEndsItsRecordingWithIt() throws Exception {
        String cookie = TestingPeople.signUp(klave, "rita", false);
        String id = JSON.readTree(klave.http().get("/api/me", "Cookie", cookie).body()).get("id").asText();
        String grant = JSON.readTree(klave.http().send("POST", "/api/grants", "{\"subject_id\":\"" + id
                + "\",\"cluster_id\":\"prod-1\",\"tier\":\"edit\",\"scope\":\"team-a\"}", "Cookie", admin).body())
                .get("id").asText();
        Eventually.until("rita's impersonation", Duration.ofSeconds(10), () -> cluster.objects()
                .get("clusterroles", null, "klave-impersonation").map(role -> role.toString().contains("user:rita"))
                .orElse(false));
        JsonNode issued = JSON.readTree(klave.http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie",
                cookie).body());
        try (Kubectl rita = new Kubectl(issued.get("kubeconfig").asText())) {
            Process session = rita.start(Map.of(), "exec", "-i", "box", "-n", "team-a", "--", "cat");
            Eventually.until("the session open", Duration.ofSeconds(10), () -> cluster.requests().stream()
                    .anyMatch(request -> request.path().endsWith("/exec") && request.query().getOrDefault("command",
                            List.of()).contains("cat")));
            long revoked = System.nanoTime();
            klave.http().send("DELETE", "/api/grants/" + grant, null, "Cookie", admin);

            assertThat(session.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)).as("the session cut").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - revoked)).isLessThan(Duration.ofSeconds(11));
        }
        JsonNode recording = recordingOf("cat");
        assertThat(recording.get("subject").asText()).isEqualTo("rita");
        assertThat(recording.get("ended_at").isNull()).isFalse();
        assertThat(recording.get("state").asText()).isEqualTo("complete");
        assertThat(cast(recording.get("id").asText(), admin).get(0).get("version").asInt()).isEqualTo(2);
    }

    @Test
    void theListFiltersAPersonByIdOrByLoginAsTheAuditDoes() throws Exception {
        Kubectl.Result result = kubectl.run(Map.of(), "", "exec", "box", "-n", "team-a", "--", "echo", "filtro");
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        String id = recordingOf("echo filtro").get("subject_id").asText();

        JsonNode byLogin = JSON.readTree(klave.http().get("/api/recordings?subject=eva", "Cookie", admin).body());
        JsonNode byId = JSON.readTree(klave.http().get("/api/recordings?subject=" + id, "Cookie", admin).body());
        assertThat(byLogin.findValuesAsText("command")).contains("echo filtro");
        assertThat(byLogin).isEqualTo(byId);
        assertThat(klave.http().get("/api/recordings?subject=nadie", "Cookie", admin).statusCode()).isEqualTo(404);
    }
}
