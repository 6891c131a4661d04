package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * One session's recording from kubectl's channel protocol: output decoded as UTF-8 across messages,
 * resizes and the exit status as events, stdin left out, a frame it cannot read ending the
 * recording (incomplete) and its cap truncating it — the session itself untouched.
 */
class RecorderTest {
    private final List<String> chunks = new ArrayList<>();
    private final List<String> ends = new ArrayList<>();
    private final AtomicLong clock = new AtomicLong();

    private Recorder recorder(long cap) {
        return recorder(StreamProtocol.WEBSOCKET, Stdin.NOT_RECORDED, cap);
    }

    private Recorder recorder(StreamProtocol protocol, Stdin stdin, long cap) {
        return new Recorder("audit-1", protocol, SpdyReader.NONE, stdin, cap, clock::get, new Recorder.Writer() {
            @Override
            public Optional<String> chunk(String id, int seq, String lines, List<LineIndex.Line> printed) {
                chunks.add(lines);
                return Optional.empty();
            }

            @Override
            public void end(String id, Recording.State state, Optional<String> reason, Optional<Integer> exitCode,
                    Terminal.Size size, List<LineIndex.Line> printed) {
                ends.add(state.code() + " " + reason.orElse("-") + " " + exitCode.map(String::valueOf).orElse("-")
                        + " " + size.width() + "x" + size.height());
            }
        });
    }

    private static byte[] message(int channel, byte[] data, boolean masked) {
        byte[] payload = new byte[data.length + 1];
        payload[0] = (byte) channel;
        System.arraycopy(data, 0, payload, 1, data.length);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        WebSocketFramesProperties.writeFrame(wire, true, 2, payload, masked, new Random(7));
        return wire.toByteArray();
    }

    @Test
    void outputResizesAndTheExitStatusBecomeEventsAndStdinStaysOut() {
        Recorder recorder = recorder(Recordings.CAP);
        byte[] letter = "ñ".getBytes(StandardCharsets.UTF_8);
        recorder.fromClient(message(4, "{\"Width\":120,\"Height\":40}".getBytes(StandardCharsets.UTF_8), true));
        clock.set(1_500_000_000L);
        recorder.fromCluster(message(1, new byte[] {'a', letter[0]}, false));
        recorder.fromCluster(message(1, new byte[] {letter[1], 'b'}, false));
        recorder.fromCluster(message(2, "mal\n".getBytes(StandardCharsets.UTF_8), false));
        recorder.fromClient(message(0, "secreto\n".getBytes(StandardCharsets.UTF_8), true));
        recorder.fromCluster(message(3, ("{\"status\":\"Failure\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\","
                + "\"message\":\"2\"}]}}").getBytes(StandardCharsets.UTF_8), false));
        recorder.end(Optional.empty());

        String lines = String.join("", chunks);
        assertThat(lines).contains("[0.0,\"r\",\"120x40\"]").contains("[1.5,\"o\",\"a\"]")
                .contains("\"o\",\"ñb\"]").contains("\"o\",\"mal\\n\"]").contains("\"m\",\"exit 2\"]")
                .doesNotContain("secreto");
        assertThat(ends).containsExactly("complete - 2 120x40");
    }

    @Test
    void aFrameItCannotReadEndsTheRecordingAsIncomplete() {
        Recorder recorder = recorder(Recordings.CAP);
        recorder.fromCluster(message(1, "antes".getBytes(StandardCharsets.UTF_8), false));
        recorder.fromCluster(new byte[] {(byte) 0x83, 0x00});
        recorder.fromCluster(message(1, "después".getBytes(StandardCharsets.UTF_8), false));
        recorder.end(Optional.empty());

        assertThat(String.join("", chunks)).contains("antes").doesNotContain("después");
        assertThat(ends.get(0)).startsWith("incomplete un frame que el grabador no sabe leer");
    }

    @Test
    void theCapTruncatesTheRecording() {
        Recorder recorder = recorder(200);
        assertThat(recorder.recording()).isTrue();
        for (int i = 0; i < 20; i++) {
            recorder.fromCluster(message(1, ("línea " + i + "\n").getBytes(StandardCharsets.UTF_8), false));
        }
        assertThat(recorder.recording()).as("past the cap the relay copies nothing more for it").isFalse();
        recorder.end(Optional.empty());

        assertThat(String.join("", chunks).length()).isLessThanOrEqualTo(200);
        assertThat(ends.get(0)).startsWith("truncated llegó al tope");
    }

    /** A base64 channel protocol's message: the channel's digit, then the data in base64, as text (opcode 1). */
    private static byte[] base64Message(int channel, byte[] data, boolean masked) {
        byte[] payload = ((char) ('0' + channel) + java.util.Base64.getEncoder().encodeToString(data))
                .getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        WebSocketFramesProperties.writeFrame(wire, true, 1, payload, masked, new Random(7));
        return wire.toByteArray();
    }

    @Test
    void theBase64ProtocolsAreReadAsTheSameChannelsAndStdinIsRecordedWhereAsked() {
        Recorder recorder = recorder(StreamProtocol.WEBSOCKET_BASE64, Stdin.RECORDED, Recordings.CAP);
        recorder.fromClient(base64Message(4, "{\"Width\":100,\"Height\":30}".getBytes(StandardCharsets.UTF_8), true));
        recorder.fromClient(base64Message(0, "tecleado\n".getBytes(StandardCharsets.UTF_8), true));
        recorder.fromCluster(base64Message(1, "hola\n".getBytes(StandardCharsets.UTF_8), false));
        recorder.fromCluster(base64Message(2, "ay\n".getBytes(StandardCharsets.UTF_8), false));
        recorder.fromCluster(base64Message(3, "{\"status\":\"Success\"}".getBytes(StandardCharsets.UTF_8), false));
        recorder.end(Optional.empty());

        assertThat(String.join("", chunks)).contains("\"r\",\"100x30\"]").contains("\"i\",\"tecleado\\n\"]")
                .contains("\"o\",\"hola\\n\"]").contains("\"o\",\"ay\\n\"]").contains("\"m\",\"exit 0\"]");
        assertThat(ends).containsExactly("complete - 0 100x30");
    }

    @Test
    void aMessageItsProtocolDoesNotCarryEndsTheRecordingAsIncomplete() {
        // A text message on a binary protocol: the recorder cannot say what it held.
        Recorder binary = recorder(Recordings.CAP);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        WebSocketFramesProperties.writeFrame(text, true, 1, "1secreto".getBytes(StandardCharsets.UTF_8), false,
                new Random(7));
        binary.fromCluster(text.toByteArray());
        binary.end(Optional.empty());
        assertThat(ends.get(0)).startsWith("incomplete un frame que el grabador no sabe leer");

        ends.clear();
        Recorder base64 = recorder(StreamProtocol.WEBSOCKET_BASE64, Stdin.NOT_RECORDED, Recordings.CAP);
        ByteArrayOutputStream bad = new ByteArrayOutputStream();
        WebSocketFramesProperties.writeFrame(bad, true, 1, "1no es base64!".getBytes(StandardCharsets.UTF_8), false,
                new Random(7));
        base64.fromCluster(bad.toByteArray());
        base64.end(Optional.empty());
        assertThat(ends.get(0)).startsWith("incomplete un frame que el grabador no sabe leer");
    }
}
