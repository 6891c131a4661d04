package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.Eventually;
import dev.klave.testing.RawWebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 51 §1-2: a session under {@code required} is recorded or not relayed, whatever protocol or
 * path it takes. An outside attack ran a WebSocket exec in {@code base64.channel.k8s.io} (which
 * kubelets serve and browser terminals use) and got all its output while its recording said
 * {@code complete} with 0 bytes; and any upgrade Klave did not recognise — the kubelet's exec
 * through the node proxy, {@code pods/<pod>/EXEC} — was relayed unrecorded. Here the base64
 * protocols are recorded; what the recorder cannot read is refused before the cluster sees it or,
 * if the cluster chose it anyway, before a byte is relayed; and an upgrade that is neither a
 * session nor a port-forward is refused. The paths are the real API server's and kubelet's routes
 * (exact and case-sensitive), written from their documented behaviour.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionsCannotDodgeRecordingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EXEC = "/clusters/prod-1/api/v1/namespaces/team-a/pods/box/exec"
            + "?command=echo&command=visto&stdout=true&stderr=true";

    private RecordingStand stand;

    @BeforeAll
    void start() throws Exception {
        stand = RecordingStand.start();
        // Ana holds cluster-admin: the node proxy (nodes/proxy) is hers, as it would be on a real cluster.
        String ana = dev.klave.testing.TestingPeople.signUp(stand.klave(), "ana", false);
        String id = JSON.readTree(stand.klave().http().get("/api/me", "Cookie", ana).body()).get("id").asText();
        stand.klave().http().send("POST", "/api/grants", "{\"subject_id\":\"" + id + "\",\"cluster_id\":\"prod-1\","
                + "\"tier\":\"cluster-admin\",\"scope\":\"*\"}", "Cookie", stand.admin());
        anaToken = JSON.readTree(stand.klave().http().send("POST", "/api/credentials", "{\"ttl\":\"1h\"}", "Cookie",
                ana).body()).get("token").asText();
        Eventually.until("ana's binding", Duration.ofSeconds(10), () -> stand.cluster().objects()
                .get("clusterrolebindings", "", "klave-cluster-admin").isPresent());
    }

    private String anaToken;

    @AfterAll
    void stop() {
        stand.close();
    }

    @BeforeEach
    void healthy() {
        stand.cluster().sessionAnswer(Map.of());
        stand.cluster().clearRequests();
    }

    private RawWebSocket open(String path, String token, Map<String, String> headers) throws Exception {
        java.util.Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.put("Authorization", "Bearer " + token);
        return RawWebSocket.open(stand.klave().http().tls(), stand.klave().port(), "GET", path, all);
    }

    /** What a base64 channel session printed on stdout: each text message's digit, then base64. */
    private static String base64Output(List<RawWebSocket.Frame> frames) {
        StringBuilder out = new StringBuilder();
        for (RawWebSocket.Frame frame : frames) {
            if (frame.opcode() == 1 && frame.payload().length > 0 && frame.payload()[0] == '1') {
                out.append(new String(Base64.getDecoder().decode(frame.text().substring(1)), StandardCharsets.UTF_8));
            }
        }
        return out.toString();
    }

    private boolean clusterSaw(String fragment) {
        return stand.cluster().requests().stream().anyMatch(request -> request.path().contains(fragment));
    }

    @Test
    void theBase64ChannelProtocolsAreRecordedUnderRequired() throws Exception {
        stand.policy("required");
        for (String protocol : List.of("v4.base64.channel.k8s.io", "base64.channel.k8s.io")) {
            String path = EXEC.replace("visto", "visto-" + protocol.charAt(0));
            try (RawWebSocket session = open(path, stand.evaToken(), Map.of("Sec-WebSocket-Protocol", protocol))) {
                assertThat(session.answer().status()).as(session.answer().body()).isEqualTo(101);
                assertThat(session.answer().header("Sec-WebSocket-Protocol")).contains(protocol);
                assertThat(base64Output(session.readAll())).isEqualTo("visto-" + protocol.charAt(0) + "\n");
            }
            JsonNode recording = stand.recordingOf("echo visto-" + protocol.charAt(0));
            assertThat(recording.get("state").asText()).as(protocol).isEqualTo("complete");
            assertThat(recording.get("bytes").asLong()).as(protocol).isPositive();
            assertThat(stand.output(recording.get("id").asText())).isEqualTo("visto-" + protocol.charAt(0) + "\n");
        }
    }

    @Test
    void underRequiredAnOfferOfNoProtocolTheRecorderReadsIsRefusedBeforeTheCluster() throws Exception {
        stand.policy("required");
        try (RawWebSocket session = open(EXEC, stand.evaToken(),
                Map.of("Sec-WebSocket-Protocol", "v9.secreto.k8s.io"))) {
            assertThat(session.answer().status()).isEqualTo(403);
            assertThat(session.answer().body()).contains("este cluster exige grabar las sesiones y Klave no sabe "
                    + "grabar esta conexión").contains("v9.secreto.k8s.io");
        }
        assertThat(clusterSaw("/exec")).as("the cluster never saw it").isFalse();
        // An offer with one it reads goes on with only those, and without compression.
        try (RawWebSocket session = open(EXEC.replace("visto", "mixto"), stand.evaToken(), Map.of(
                "Sec-WebSocket-Protocol", "v9.secreto.k8s.io, v4.base64.channel.k8s.io",
                "Sec-WebSocket-Extensions", "permessage-deflate"))) {
            assertThat(session.answer().status()).isEqualTo(101);
            assertThat(base64Output(session.readAll())).isEqualTo("mixto\n");
        }
        var sent = stand.cluster().requests().stream().filter(request -> request.path().endsWith("/exec")).findFirst()
                .orElseThrow();
        assertThat(sent.headers().get("sec-websocket-protocol")).containsExactly("v4.base64.channel.k8s.io");
        assertThat(sent.headers()).doesNotContainKey("sec-websocket-extensions");
    }

    @Test
    void aProtocolTheClusterChoseThatTheRecorderCannotReadIsRefusedUnderRequiredAndMarkedUnderOn() throws Exception {
        stand.policy("required");
        stand.cluster().sessionAnswer(Map.of("Sec-WebSocket-Protocol", "v4.channel.k8s.io",
                "Sec-WebSocket-Extensions", "permessage-deflate"));
        try (RawWebSocket session = open(EXEC.replace("visto", "comprimido"), stand.evaToken(),
                Map.of("Sec-WebSocket-Protocol", "v4.channel.k8s.io"))) {
            assertThat(session.answer().status()).as("not a byte of the session relayed").isEqualTo(403);
            assertThat(session.answer().body()).contains("Klave no sabe grabar esta conexión")
                    .contains("permessage-deflate");
        }
        stand.cluster().sessionAnswer(Map.of("Sec-WebSocket-Protocol", "v9.secreto.k8s.io"));
        try (RawWebSocket session = open(EXEC.replace("visto", "raro"), stand.evaToken(),
                Map.of("Sec-WebSocket-Protocol", "v4.channel.k8s.io"))) {
            assertThat(session.answer().status()).isEqualTo(403);
            assertThat(session.answer().body()).contains("v9.secreto.k8s.io");
        }

        stand.policy("on");
        try (RawWebSocket session = open(EXEC.replace("visto", "sin-grabar"), stand.evaToken(),
                Map.of("Sec-WebSocket-Protocol", "v4.channel.k8s.io"))) {
            assertThat(session.answer().status()).as("on: the session goes on").isEqualTo(101);
            session.readAll();
        }
        JsonNode recording = stand.recordingOf("echo sin-grabar");
        assertThat(recording.get("state").asText()).as("never complete").isEqualTo("incomplete");
        assertThat(recording.get("reason").asText()).startsWith("sin grabar").contains("v9.secreto.k8s.io");
    }

    @Test
    void underRequiredAnUpgradeThatIsNoSessionKlaveRecordsIsRefusedBeforeTheCluster() throws Exception {
        stand.policy("required");
        for (String path : List.of(
                "/clusters/prod-1/api/v1/namespaces/team-a/pods/box/EXEC?command=id&stdout=true",
                "/clusters/prod-1/apis/v1/namespaces/team-a/pods/box/exec?command=id&stdout=true",
                "/clusters/prod-1/api/v1/namespaces/team-a/pods/box/proxy/shell",
                "/clusters/prod-1/api/v1/namespaces/team-a/services/box/proxy/ws",
                "/clusters/prod-1/api/v1/nodes/node-1/proxy/Exec/team-a/box/app?command=id&output=1",
                "/clusters/prod-1/api/v1/nodes/node-1/proxy/containerLogs/team-a/box/app",
                "/clusters/prod-1/api/v1/nodes/node-1/proxy/exec/team-a/box?command=id&output=1")) {
            try (RawWebSocket session = open(path, anaToken, Map.of("Sec-WebSocket-Protocol", "v4.channel.k8s.io"))) {
                assertThat(session.answer().status()).as(path).isEqualTo(403);
                assertThat(session.answer().body()).as(path).contains("este cluster exige grabar las sesiones y Klave "
                        + "no sabe grabar esta conexión: no es un exec, un attach ni un port-forward");
            }
        }
        assertThat(stand.cluster().requests()).as("none reached the cluster").isEmpty();
        // Under "on" the same upgrade is relayed as it is: the cluster answers it (its 404).
        stand.policy("on");
        try (RawWebSocket session = open("/clusters/prod-1/api/v1/namespaces/team-a/pods/box/EXEC?command=id",
                anaToken, Map.of("Sec-WebSocket-Protocol", "v4.channel.k8s.io"))) {
            assertThat(session.answer().status()).isEqualTo(404);
        }
    }

    @Test
    void theKubeletsExecThroughTheNodeProxyIsRecordedAndItsRunRefusedUnderRequired() throws Exception {
        stand.policy("required");
        String path = "/clusters/prod-1/api/v1/nodes/node-1/proxy/exec/team-a/box/app?command=echo&command=nodo"
                + "&output=1&error=1";
        try (RawWebSocket session = open(path, anaToken, Map.of("Sec-WebSocket-Protocol", "v4.channel.k8s.io"))) {
            assertThat(session.answer().status()).as(session.answer().body()).isEqualTo(101);
            StringBuilder out = new StringBuilder();
            for (RawWebSocket.Frame frame : session.readAll()) {
                if (frame.opcode() == 2 && frame.payload().length > 0 && frame.payload()[0] == 1) {
                    out.append(new String(frame.payload(), 1, frame.payload().length - 1, StandardCharsets.UTF_8));
                }
            }
            assertThat(out.toString()).isEqualTo("nodo\n");
        }
        JsonNode recording = stand.recordingOf("echo nodo");
        assertThat(recording.get("state").asText()).isEqualTo("complete");
        assertThat(recording.get("container").asText()).isEqualTo("app");
        assertThat(stand.output(recording.get("id").asText())).isEqualTo("nodo\n");

        // The kubelet's run is a plain POST that runs a command: nothing to record, so not relayed.
        var run = stand.klave().http().send("POST", "/clusters/prod-1/api/v1/nodes/node-1/proxy/run/team-a/box/app"
                + "?cmd=echo%20corre", "", "Authorization", "Bearer " + anaToken);
        assertThat(run.statusCode()).isEqualTo(403);
        assertThat(run.body()).contains("sin conexión actualizada no se puede grabar");
        assertThat(clusterSaw("/run/")).isFalse();
        stand.policy("on");
        var relayed = stand.klave().http().send("POST", "/clusters/prod-1/api/v1/nodes/node-1/proxy/run/team-a/box/app"
                + "?cmd=echo%20corre", "", "Authorization", "Bearer " + anaToken);
        assertThat(relayed.body()).isEqualTo("corre\n");
    }

    @Test
    void aPortForwardIsRelayedAsDataUnderRequired() throws Exception {
        stand.policy("required");
        try (RawWebSocket forward = open("/clusters/prod-1/api/v1/namespaces/team-a/pods/box/portforward?ports=80",
                stand.evaToken(), Map.of("Sec-WebSocket-Protocol", "v4.channel.k8s.io"))) {
            assertThat(forward.answer().status()).as(forward.answer().body()).isNotEqualTo(403);
        }
        assertThat(clusterSaw("/portforward")).isTrue();
    }
}
