package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** SPDY/3 frames and header blocks: round trips, the wire layout, and the shared zlib context. */
class SpdyFrameCodecTest {
    @Test
    void theHeaderDictionaryIsTheSpdy3One() throws Exception {
        byte[] dictionary = SpdyHeaderBlock.DICTIONARY;

        assertThat(dictionary).hasSize(1423);
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(dictionary)))
                .isEqualTo("51d27341373f923f3cd88e1eb7162aeaa3723d7585ff2399201dc06498407f02");
    }

    @Test
    void everyFrameTypeSurvivesARoundTrip() throws IOException {
        List<SpdyFrame> frames = List.of(
                new SpdyFrame.SynStream(1, 0, 0, Map.of("streamtype", List.of("error"))),
                new SpdyFrame.SynStream(3, 0, SpdyFrame.FLAG_FIN, Map.of("streamtype", List.of("stdout"), "port", List.of("80"))),
                new SpdyFrame.SynReply(1, 0, Map.of()),
                new SpdyFrame.Headers(3, 0, Map.of("x", List.of("a", "b"))),
                new SpdyFrame.RstStream(5, 5),
                new SpdyFrame.Settings(0, Map.of(7, 65536)),
                new SpdyFrame.Ping(1),
                new SpdyFrame.WindowUpdate(1, 4096),
                new SpdyFrame.GoAway(3, 0));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        SpdyFrameCodec writer = new SpdyFrameCodec(new ByteArrayInputStream(new byte[0]), wire);
        for (SpdyFrame frame : frames) {
            writer.write(frame);
        }
        SpdyFrameCodec reader = new SpdyFrameCodec(new ByteArrayInputStream(wire.toByteArray()), new ByteArrayOutputStream());

        for (SpdyFrame expected : frames) {
            assertThat(reader.read()).contains(expected);
        }
        assertThat(reader.read()).isEmpty();
    }

    @Test
    void dataFramesCarryTheStreamIdFlagsAndPayload() throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        new SpdyFrameCodec(new ByteArrayInputStream(new byte[0]), wire)
                .write(new SpdyFrame.Data(3, SpdyFrame.FLAG_FIN, "hi".getBytes()));

        assertThat(HexFormat.of().formatHex(wire.toByteArray())).isEqualTo("00000003" + "01000002" + "6869");
        SpdyFrame.Data read = (SpdyFrame.Data) new SpdyFrameCodec(new ByteArrayInputStream(wire.toByteArray()),
                new ByteArrayOutputStream()).read().orElseThrow();
        assertThat(read.streamId()).isEqualTo(3);
        assertThat(read.fin()).isTrue();
        assertThat(read.data()).isEqualTo("hi".getBytes());
    }

    @Test
    void controlFramesStartWithTheControlBitVersionAndType() throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        new SpdyFrameCodec(new ByteArrayInputStream(new byte[0]), wire).write(new SpdyFrame.Ping(7));

        assertThat(HexFormat.of().formatHex(wire.toByteArray())).isEqualTo("8003" + "0006" + "00000004" + "00000007");
    }

    @Test
    void headerBlocksFromAnIndependentZlibWriterWithTheDictionaryAreRead() throws IOException {
        // What Go's zlib.NewWriterLevelDict produces: a zlib stream primed with the dictionary,
        // flushed after the block. Two blocks share the stream, as on a SPDY connection.
        Deflater go = new Deflater(Deflater.BEST_COMPRESSION);
        go.setDictionary(SpdyHeaderBlock.DICTIONARY);
        SpdyHeaderBlock reader = new SpdyHeaderBlock();

        Map<String, List<String>> first = reader.decompress(deflate(go, plainBlock("streamtype", "data", "port", "8080")));
        Map<String, List<String>> second = reader.decompress(deflate(go, plainBlock("streamtype", "error", "port", "8080")));

        assertThat(first).containsEntry("streamtype", List.of("data")).containsEntry("port", List.of("8080"));
        assertThat(second).containsEntry("streamtype", List.of("error"));
    }

    @Test
    void headerNamesAreLowerCasedAndMultipleValuesNulSeparated() throws IOException {
        SpdyHeaderBlock writer = new SpdyHeaderBlock();
        SpdyHeaderBlock reader = new SpdyHeaderBlock();

        Map<String, List<String>> read = reader.decompress(writer.compress(Map.of("StreamType", List.of("stdin", "stdout"))));

        assertThat(read).isEqualTo(Map.of("streamtype", List.of("stdin", "stdout")));
    }

    private static byte[] plainBlock(String... namesAndValues) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeInt(namesAndValues.length / 2);
            for (String text : namesAndValues) {
                out.writeInt(text.length());
                out.writeBytes(text);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    private static byte[] deflate(Deflater deflater, byte[] plain) {
        deflater.setInput(plain);
        byte[] buffer = new byte[4096];
        int count = deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
        return Arrays.copyOf(buffer, count);
    }
}
