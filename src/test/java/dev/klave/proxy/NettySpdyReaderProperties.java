package dev.klave.proxy;

import dev.klave.recording.SpdyReader;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.spdy.DefaultSpdyDataFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynReplyFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyVersion;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The recorder's SPDY/3.1 reader against what Netty's SPDY encoder writes (compressed header blocks
 * with SPDY's dictionary, as kubectl's): the streams' types and their bytes come back whatever the
 * pieces the connection's bytes arrive in; bytes that are no frame stop it, never throw.
 */
class NettySpdyReaderProperties {
    @Provide
    Arbitrary<List<byte[]>> payloads() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(20_000).list().ofMinSize(1).ofMaxSize(5);
    }

    @Property(tries = 100)
    void streamsAndTheirBytesComeBackWhateverThePieces(@ForAll("payloads") List<byte[]> payloads, @ForAll long seed)
            throws Exception {
        EmbeddedChannel writer = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1, false));
        SpdySynStreamFrame stdout = new DefaultSpdySynStreamFrame(1, 0, (byte) 0);
        stdout.headers().set("streamtype", "stdout");
        SpdySynStreamFrame error = new DefaultSpdySynStreamFrame(3, 0, (byte) 0);
        error.headers().set("streamtype", "error");
        writer.writeOutbound(stdout, error);
        for (byte[] payload : payloads) {
            writer.writeOutbound(new DefaultSpdyDataFrame(1, Unpooled.wrappedBuffer(payload)));
        }
        byte[] all = wire(writer);
        writer.finishAndReleaseAll();

        List<String> opened = new ArrayList<>();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        SpdyReader streams = new NettySpdyReader(new SpdyReader.Events() {
            @Override
            public void opened(int stream, String type) {
                opened.add(stream + ":" + type);
            }

            @Override
            public void data(int stream, byte[] bytes, boolean last) {
                received.writeBytes(bytes);
            }
        });
        feedInPieces(streams, all, new Random(seed));
        streams.close();

        assertThat(streams.failed()).isFalse();
        assertThat(opened).containsExactly("1:stdout", "3:error");
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        payloads.forEach(sent::writeBytes);
        assertThat(received.toByteArray()).isEqualTo(sent.toByteArray());
    }

    @Property(tries = 50)
    void theClustersDirectionReadsDataAfterRepliesWhoseHeadersItSkips(@ForAll("payloads") List<byte[]> payloads,
            @ForAll long seed) {
        EmbeddedChannel writer = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1, false));
        DefaultSpdySynReplyFrame reply = new DefaultSpdySynReplyFrame(1);
        reply.headers().set("x-note", "uno");
        writer.writeOutbound(reply, new DefaultSpdySynReplyFrame(3));
        for (byte[] payload : payloads) {
            writer.writeOutbound(new DefaultSpdyDataFrame(1, Unpooled.wrappedBuffer(payload)));
        }
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        SpdyReader streams = new NettySpdyReader(new SpdyReader.Events() {
            @Override
            public void opened(int stream, String type) {
                throw new AssertionError("a reply opens no stream");
            }

            @Override
            public void data(int stream, byte[] bytes, boolean last) {
                received.writeBytes(bytes);
            }
        });
        feedInPieces(streams, wire(writer), new Random(seed));
        assertThat(streams.failed()).isFalse();
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        payloads.forEach(sent::writeBytes);
        assertThat(received.toByteArray()).isEqualTo(sent.toByteArray());

        // A stream opened after a block was skipped cannot be read (the zlib history is gone).
        SpdySynStreamFrame late = new DefaultSpdySynStreamFrame(5, 0, (byte) 0);
        late.headers().set("streamtype", "stdout");
        writer.writeOutbound(late);
        streams.feed(wire(writer));
        assertThat(streams.failed()).isTrue();
        streams.close();
        writer.finishAndReleaseAll();
    }

    private static byte[] wire(EmbeddedChannel writer) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (Object written = writer.readOutbound(); written != null; written = writer.readOutbound()) {
            ByteBuf bytes = (ByteBuf) written;
            wire.writeBytes(ByteBufUtil.getBytes(bytes));
            bytes.release();
        }
        return wire.toByteArray();
    }

    private static void feedInPieces(SpdyReader streams, byte[] all, Random random) {
        for (int offset = 0; offset < all.length; ) {
            int piece = Math.min(all.length - offset, 1 + random.nextInt(4000));
            byte[] part = new byte[piece];
            System.arraycopy(all, offset, part, 0, piece);
            streams.feed(part);
            offset += piece;
        }
    }

    @Property(tries = 200)
    void bytesThatAreNoFrameNeverThrow(@ForAll byte[] noise) {
        SpdyReader streams = new NettySpdyReader(new SpdyReader.Events() {
            @Override
            public void opened(int stream, String type) {}

            @Override
            public void data(int stream, byte[] bytes, boolean last) {}
        });
        org.assertj.core.api.Assertions.assertThatCode(() -> {
            streams.feed(noise);
            streams.feed(noise);
            streams.close();
        }).doesNotThrowAnyException();
    }
}
