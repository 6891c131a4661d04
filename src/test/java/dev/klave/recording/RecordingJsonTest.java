package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.http.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The JSON a recording is read as — {@code /api/recordings} and {@code /api/recordings/{id}} (issue
 * 42, only in the code), and the asciicast header of its download — pinned byte for byte: the web's
 * "Sesiones" view and every asciicast player read these names.
 */
class RecordingJsonTest {
    private static final Instant STARTED = Instant.parse("2026-11-29T10:00:00Z");
    private static final String EVA = "9b2f0c1e-1c8a-4d7e-9a57-6f1f3f0e0a01";
    private static final String ANA = "9b2f0c1e-1c8a-4d7e-9a57-6f1f3f0e0a02";

    private static Recording running() {
        return Recording.started("audit-1", new Recording.Owner(new SubjectId(EVA), "eva"),
                new Recording.Target(new ClusterId("prod"), "team-a", "box", Optional.empty(), "sh"),
                Terminal.opening(Terminal.Tty.ALLOCATED), Stdin.NOT_RECORDED, STARTED);
    }

    private static Recording ended() {
        return new Recording("audit-2", new Recording.Owner(new SubjectId(ANA), "ana"),
                new Recording.Target(new ClusterId("prod"), "team-b", "web-0", Optional.of("app"), "ls -l"),
                new Terminal(Terminal.Tty.NONE, new Terminal.Size(120, 40)), Stdin.RECORDED, STARTED,
                new Recording.Progress(Recording.State.TRUNCATED, Optional.of("el tope"), 4096,
                        Optional.of(STARTED.plusSeconds(5)), Optional.of(3)));
    }

    @Test
    void aRunningRecordingIsListedWithTheDefaultSize() {
        assertThat(new String(Json.write(RecordingRoutes.view(running())), StandardCharsets.UTF_8)).isEqualTo(
                "{\"id\":\"audit-1\",\"subject_id\":\"" + EVA + "\",\"subject\":\"eva\",\"cluster\":\"prod\","
                + "\"namespace\":\"team-a\",\"pod\":\"box\",\"container\":null,\"command\":\"sh\",\"tty\":true,"
                + "\"stdin_recorded\":false,\"started_at\":\"2026-11-29T10:00:00Z\",\"ended_at\":null,"
                + "\"state\":\"recording\",\"reason\":null,\"bytes\":0,\"width\":80,\"height\":24,"
                + "\"exit_code\":null}");
    }

    @Test
    void anEndedRecordingIsListedWithHowItEnded() {
        assertThat(new String(Json.write(RecordingRoutes.view(ended())), StandardCharsets.UTF_8)).isEqualTo(
                "{\"id\":\"audit-2\",\"subject_id\":\"" + ANA + "\",\"subject\":\"ana\",\"cluster\":\"prod\","
                + "\"namespace\":\"team-b\",\"pod\":\"web-0\",\"container\":\"app\",\"command\":\"ls -l\","
                + "\"tty\":false,\"stdin_recorded\":true,\"started_at\":\"2026-11-29T10:00:00Z\","
                + "\"ended_at\":\"2026-11-29T10:00:05Z\",\"state\":\"truncated\",\"reason\":\"el tope\","
                + "\"bytes\":4096,\"width\":120,\"height\":40,\"exit_code\":3}");
    }

    @Test
    void theAsciicastHeaderSaysTheSizeAndKlavesFacts() {
        assertThat(Cast.header(running())).isEqualTo("{\"version\":2,\"width\":80,\"height\":24,"
                + "\"timestamp\":1795946400,\"title\":\"box · prod\",\"klave\":{\"audit_id\":\"audit-1\","
                + "\"subject\":\"eva\",\"cluster\":\"prod\",\"namespace\":\"team-a\",\"pod\":\"box\","
                + "\"container\":null,\"command\":\"sh\",\"tty\":true,\"stdin_recorded\":false}}\n");
        assertThat(Cast.header(ended())).isEqualTo("{\"version\":2,\"width\":120,\"height\":40,"
                + "\"timestamp\":1795946400,\"title\":\"web-0 · prod\",\"klave\":{\"audit_id\":\"audit-2\","
                + "\"subject\":\"ana\",\"cluster\":\"prod\",\"namespace\":\"team-b\",\"pod\":\"web-0\","
                + "\"container\":\"app\",\"command\":\"ls -l\",\"tty\":false,\"stdin_recorded\":true}}\n");
    }

    @Test
    void aClustersSettingsSayWhetherStdinIsRecorded() {
        assertThat(new String(Json.write(new RecordingRoutes.PolicyView("prod", ClusterRecording.DEFAULT)),
                StandardCharsets.UTF_8)).isEqualTo("{\"cluster\":\"prod\",\"policy\":\"on\",\"stdin\":false}");
        assertThat(new String(Json.write(new RecordingRoutes.PolicyView("prod",
                new ClusterRecording(RecordingPolicy.REQUIRED, Stdin.RECORDED))), StandardCharsets.UTF_8))
                .isEqualTo("{\"cluster\":\"prod\",\"policy\":\"required\",\"stdin\":true}");
    }
}
