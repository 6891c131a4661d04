package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The recorder's WebSocket reader (RFC 6455 §5.2) against frames built here: whatever the message
 * sizes (all three length forms), masks, fragmentation and the pieces the bytes arrive in, it hands
 * back exactly the messages sent, in order; and bytes that are no frame make it stop, never throw.
 */
class WebSocketFramesProperties {
    @Provide
    Arbitrary<List<byte[]>> messages() {
        Arbitrary<byte[]> message = Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(125),
                Arbitraries.bytes().array(byte[].class).ofMinSize(126).ofMaxSize(70_000));
        return message.list().ofMinSize(1).ofMaxSize(6);
    }

    @Property(tries = 200)
    void messagesComeBackWholeWhateverThePiecesAndMasks(@ForAll("messages") List<byte[]> sent,
            @ForAll boolean masked, @ForAll @IntRange(min = 1, max = 4) int fragments, @ForAll long seed) {
        Random random = new Random(seed);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (byte[] message : sent) {
            writeMessage(wire, message, masked, fragments, random);
            // A ping between messages: control frames are passed through on their own.
            writeFrame(wire, true, 9, new byte[] {1, 2}, masked, random);
        }
        List<byte[]> received = new ArrayList<>();
        WebSocketFrames frames = new WebSocketFrames((opcode, payload) -> {
            if (opcode == 2) {
                received.add(payload);
            }
        });
        byte[] bytes = wire.toByteArray();
        int offset = 0;
        while (offset < bytes.length) {
            int piece = Math.min(bytes.length - offset, 1 + random.nextInt(3000));
            byte[] part = new byte[piece];
            System.arraycopy(bytes, offset, part, 0, piece);
            frames.feed(part);
            offset += piece;
        }
        assertThat(frames.failed()).isFalse();
        assertThat(received).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            assertThat(received.get(i)).isEqualTo(sent.get(i));
        }
    }

    @Property(tries = 200)
    void bytesThatAreNoFrameStopTheReaderWithoutThrowing(@ForAll byte[] noise) {
        WebSocketFrames frames = new WebSocketFrames((opcode, payload) -> { });
        // Either it waits for more, reads some frames, or stops for good: it never throws.
        org.assertj.core.api.Assertions.assertThatCode(() -> {
            frames.feed(noise);
            frames.feed(noise);
        }).doesNotThrowAnyException();
    }

    private static void writeMessage(ByteArrayOutputStream wire, byte[] message, boolean masked, int fragments,
            Random random) {
        int parts = Math.max(1, Math.min(fragments, message.length));
        int size = (message.length + parts - 1) / Math.max(parts, 1);
        int offset = 0;
        for (int part = 0; part < parts; part++) {
            int end = part == parts - 1 ? message.length : Math.min(message.length, offset + size);
            byte[] payload = new byte[end - offset];
            System.arraycopy(message, offset, payload, 0, payload.length);
            writeFrame(wire, part == parts - 1, part == 0 ? 2 : 0, payload, masked, random);
            offset = end;
        }
    }

    static void writeFrame(ByteArrayOutputStream wire, boolean fin, int opcode, byte[] payload, boolean masked,
            Random random) {
        wire.write((fin ? 0x80 : 0) | opcode);
        int mask = masked ? 0x80 : 0;
        if (payload.length < 126) {
            wire.write(mask | payload.length);
        } else if (payload.length < 65_536) {
            wire.write(mask | 126);
            wire.write(payload.length >> 8);
            wire.write(payload.length & 0xff);
        } else {
            wire.write(mask | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                wire.write((int) (((long) payload.length >> shift) & 0xff));
            }
        }
        byte[] key = new byte[4];
        random.nextBytes(key);
        if (masked) {
            wire.writeBytes(key);
        }
        for (int i = 0; i < payload.length; i++) {
            wire.write(masked ? payload[i] ^ key[i % 4] : payload[i]);
        }
    }
}
