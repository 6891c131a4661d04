package dev.klave.proxy;

import dev.klave.recording.SpdyReader;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.spdy.DefaultSpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyFrameDecoder;
import io.netty.handler.codec.spdy.SpdyFrameDecoderDelegate;
import io.netty.handler.codec.spdy.SpdyHeaderBlockRawDecoder;
import io.netty.handler.codec.spdy.SpdyHeadersFrame;
import io.netty.handler.codec.spdy.SpdyVersion;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * One direction of a SPDY/3.1 connection (kubectl's fallback for exec and attach), read for the
 * session recorder (issue 42) with Netty's SPDY frame decoder — here, in the transport, where Netty
 * belongs. Each stream kubectl opens names its type in its {@code streamtype} header; data frames
 * carry its bytes by stream id. A frame the decoder cannot read makes it {@link #failed()} for good.
 *
 * <p>Not Netty's whole codec: it holds a zlib deflater per instance (for writing, which the recorder
 * never does) and an inflater, ~90 KiB of native memory each direction, ~190 KiB a recorded session
 * — 2 GB for 10,000 sessions left open (bench/RESULTS.md). Here a direction inflates header blocks
 * only once it meets a SYN_STREAM, the one frame whose headers the recorder reads: kubectl's
 * direction does from its first frame (one inflater, the 32 KiB window zlib needs); the cluster's
 * answers with SYN_REPLYs, whose blocks are skipped, and holds none. A block skipped leaves that
 * direction's zlib history incomplete, so a SYN_STREAM after one cannot be read and fails it.
 */
public final class NettySpdyReader implements SpdyReader {
    /** What {@code recording.Recordings} is given to read SPDY sessions with. */
    public static final SpdyReader.Factory FACTORY = NettySpdyReader::new;

    /**
     * The most of a data frame handed on at once (Netty's default is 8 KiB): kubelet's frames are
     * up to 32 KiB, and each piece becomes one asciicast event.
     */
    private static final int DATA_PIECE = 64 * 1024;

    /** The longest inflated header block read (Netty's codec's default). */
    private static final int MAX_HEADERS = 16 * 1024;

    private final Events events;
    private final SpdyFrameDecoder decoder;
    private ByteBuf waiting;
    private Inflater inflater;
    private boolean skippedBlock;
    private SpdyHeadersFrame opening;
    private ByteBuf block;
    private boolean failed;

    NettySpdyReader(Events events) {
        this.events = events;
        this.decoder = new SpdyFrameDecoder(SpdyVersion.SPDY_3_1, new Frames(), DATA_PIECE);
    }

    @Override
    public boolean failed() {
        return failed;
    }

    @Override
    public void feed(byte[] bytes) {
        if (failed) {
            return;
        }
        ByteBuf earlier = waiting;
        waiting = null;
        ByteBuf input = earlier == null ? Unpooled.wrappedBuffer(bytes)
                : Unpooled.wrappedBuffer(earlier, Unpooled.wrappedBuffer(bytes));
        try {
            decoder.decode(input);
            // What the decoder left is the start of a frame: kept, copied, until the rest comes.
            if (input.isReadable() && !failed) {
                waiting = Unpooled.copiedBuffer(input);
            }
        } catch (RuntimeException e) {
            fail();
        } finally {
            input.release();
        }
    }

    @Override
    public void close() {
        if (waiting != null) {
            waiting.release();
            waiting = null;
        }
        releaseBlock();
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }

    private void fail() {
        failed = true;
        close();
    }

    private void releaseBlock() {
        if (block != null) {
            block.release();
            block = null;
        }
    }

    /** The decoder's frames, as the recorder wants them. */
    private final class Frames implements SpdyFrameDecoderDelegate {
        @Override
        public void readDataFrame(int streamId, boolean last, ByteBuf data) {
            try {
                if (!failed) {
                    events.data(streamId, ByteBufUtil.getBytes(data), last);
                }
            } finally {
                data.release();
            }
        }

        @Override
        public void readSynStreamFrame(int streamId, int associatedToStreamId, byte priority, boolean last,
                boolean unidirectional) {
            if (failed || skippedBlock) {
                fail();
                return;
            }
            if (inflater == null) {
                inflater = new Inflater();
            }
            opening = new DefaultSpdySynStreamFrame(streamId, associatedToStreamId, priority);
            block = Unpooled.buffer(256);
        }

        @Override
        public void readHeaderBlock(ByteBuf headerBlock) {
            try {
                if (inflater == null) {
                    skippedBlock = true;
                } else if (!failed) {
                    inflate(headerBlock);
                }
            } finally {
                headerBlock.release();
            }
        }

        @Override
        public void readHeaderBlockEnd() {
            if (opening == null || failed) {
                return;
            }
            try {
                new HeaderBlock().read(block, opening);
                String type = opening.isInvalid() ? null : opening.headers().getAsString("streamtype");
                events.opened(opening.streamId(), type == null ? "" : type);
            } catch (Exception e) {
                fail();
            } finally {
                opening = null;
                releaseBlock();
            }
        }

        /**
         * A block of this direction's one zlib stream, inflated: into the SYN_STREAM's buffer when
         * one is being read, else only to keep the stream's history whole.
         */
        private void inflate(ByteBuf compressed) {
            inflater.setInput(ByteBufUtil.getBytes(compressed));
            byte[] out = new byte[1024];
            try {
                while (true) {
                    int count = inflater.inflate(out);
                    if (count == 0 && inflater.needsDictionary()) {
                        inflater.setDictionary(SpdyDictionary.bytes());
                        continue;
                    }
                    if (count == 0) {
                        return;
                    }
                    if (block != null) {
                        if (block.readableBytes() + count > MAX_HEADERS) {
                            fail();
                            return;
                        }
                        block.writeBytes(out, 0, count);
                    }
                }
            } catch (DataFormatException e) {
                fail();
            }
        }

        @Override
        public void readFrameError(String message) {
            fail();
        }

        @Override
        public void readSynReplyFrame(int streamId, boolean last) {}

        @Override
        public void readHeadersFrame(int streamId, boolean last) {}

        @Override
        public void readRstStreamFrame(int streamId, int statusCode) {}

        @Override
        public void readSettingsFrame(boolean clearPersisted) {}

        @Override
        public void readSetting(int id, int value, boolean persistValue, boolean persisted) {}

        @Override
        public void readSettingsEnd() {}

        @Override
        public void readPingFrame(int id) {}

        @Override
        public void readGoAwayFrame(int lastGoodStreamId, int statusCode) {}

        @Override
        public void readWindowUpdateFrame(int deltaWindowSize, int streamId) {}
    }

    /** Netty's reading of an inflated name/value block (its protected part: the block is whole here). */
    private static final class HeaderBlock extends SpdyHeaderBlockRawDecoder {
        HeaderBlock() {
            super(SpdyVersion.SPDY_3_1, MAX_HEADERS);
        }

        void read(ByteBuf inflated, SpdyHeadersFrame frame) throws Exception {
            decodeHeaderBlock(inflated, frame);
        }
    }
}
