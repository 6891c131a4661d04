package bench;

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

/**
 * One end of a SPDY/3.1 connection as kubectl and the kubelet speak it after an exec's 101:
 * Netty's codec on an embedded channel (its header blocks deflated with SPDY's dictionary in the
 * connection's one zlib context per direction). The bench's exec streams are real SPDY so that
 * Klave's session recorder reads them as it reads kubectl's (issue 42): raw bytes after the 101
 * would make it give up at the first byte and measure a relay that records nothing.
 */
final class Spdy implements AutoCloseable {
    /** The streams kubectl opens for {@code exec … -- cat}: the error channel, then stdout. */
    static final int ERROR = 1;
    static final int STDOUT = 3;

    private final EmbeddedChannel channel = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1));

    /** The client's opening: one SYN_STREAM per stream type, as kubectl sends them. */
    byte[] openExecStreams() {
        return encode(synStream(ERROR, "error"), synStream(STDOUT, "stdout"));
    }

    byte[] reply(int stream) {
        return encode(new DefaultSpdySynReplyFrame(stream));
    }

    byte[] data(int stream, byte[] bytes, int length, boolean last) {
        DefaultSpdyDataFrame frame = new DefaultSpdyDataFrame(stream, Unpooled.wrappedBuffer(bytes, 0, length));
        frame.setLast(last);
        return encode(frame);
    }

    /**
     * A frame read: its stream, whether it opens one (a SYN_STREAM), its data bytes, and FIN.
     * Reading is a plain scan of frame headers, not Netty's decoder: the load generator reads
     * gigabytes of output, and decoding them (copies into 8 KiB frames) bounded the "direct"
     * figure at a third of what the relays reach. Header blocks are skipped, not inflated.
     */
    record Frame(int stream, boolean opens, int bytes, boolean last) {}

    private final byte[] head = new byte[8];
    private final byte[] firstWord = new byte[4];
    private int headFilled;
    private int payloadLeft;
    private boolean control;
    private int type;
    private int flags;
    private int stream;
    private int wordFilled;
    private int length;

    /** Frames read from what arrived, in order; a piece may end mid-frame (the rest comes later). */
    List<Frame> read(byte[] bytes, int count) {
        List<Frame> frames = new ArrayList<>();
        int at = 0;
        while (at < count) {
            if (headFilled < 8) {
                int take = Math.min(8 - headFilled, count - at);
                System.arraycopy(bytes, at, head, headFilled, take);
                headFilled += take;
                at += take;
                if (headFilled < 8) {
                    break;
                }
                control = (head[0] & 0x80) != 0;
                type = control ? ((head[2] & 0xff) << 8) | (head[3] & 0xff) : 0;
                stream = control ? 0 : word(head, 0) & 0x7fffffff;
                flags = head[4] & 0xff;
                length = ((head[5] & 0xff) << 16) | ((head[6] & 0xff) << 8) | (head[7] & 0xff);
                payloadLeft = length;
                wordFilled = 0;
            }
            // Control frames of a stream (SYN_STREAM, SYN_REPLY, RST_STREAM) name it first.
            while (control && wordFilled < 4 && payloadLeft > 0 && at < count) {
                firstWord[wordFilled++] = bytes[at++];
                payloadLeft--;
            }
            int skip = Math.min(payloadLeft, count - at);
            at += skip;
            payloadLeft -= skip;
            if (payloadLeft == 0) {
                boolean fin = (flags & 0x01) != 0;
                if (!control) {
                    frames.add(new Frame(stream, false, length, fin));
                } else if (type <= 3 && wordFilled == 4) {
                    frames.add(new Frame(word(firstWord, 0) & 0x7fffffff, type == 1, 0, fin || type == 3));
                }
                headFilled = 0;
            }
        }
        return frames;
    }

    private static int word(byte[] bytes, int from) {
        return ((bytes[from] & 0xff) << 24) | ((bytes[from + 1] & 0xff) << 16) | ((bytes[from + 2] & 0xff) << 8)
                | (bytes[from + 3] & 0xff);
    }

    private static SpdySynStreamFrame synStream(int id, String type) {
        SpdySynStreamFrame frame = new DefaultSpdySynStreamFrame(id, 0, (byte) 0);
        frame.headers().add("streamtype", type);
        return frame;
    }

    private byte[] encode(Object... frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object frame : frames) {
            channel.writeOutbound(frame);
        }
        for (ByteBuf piece = channel.readOutbound(); piece != null; piece = channel.readOutbound()) {
            out.writeBytes(ByteBufUtil.getBytes(piece));
            piece.release();
        }
        return out.toByteArray();
    }

    @Override
    public void close() {
        channel.finishAndReleaseAll();
    }
}
