package dev.klave.proxy;

import dev.klave.recording.SpdyReader;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.spdy.SpdyDataFrame;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyVersion;
import io.netty.util.ReferenceCountUtil;

/**
 * One direction of a SPDY/3.1 connection (kubectl's fallback for exec and attach), read for the
 * session recorder (issue 42) with Netty's SPDY codec rather than by hand — here, in the transport,
 * where Netty belongs: frames from pieces of any size, header blocks inflated
 * with SPDY's dictionary in the direction's one zlib context. Each stream kubectl opens names its
 * type in its {@code streamtype} header; data frames carry its bytes by stream id. A frame the
 * codec cannot read makes it {@link #failed()} for good.
 */
public final class NettySpdyReader implements SpdyReader {
    /** What {@code recording.Recordings} is given to read SPDY sessions with. */
    public static final SpdyReader.Factory FACTORY = NettySpdyReader::new;

    private final EmbeddedChannel channel;
    private boolean failed;

    NettySpdyReader(Events events) {
        this.channel = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1, false),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext context, Object message) {
                        try {
                            if (message instanceof SpdySynStreamFrame opened) {
                                String type = opened.headers().getAsString("streamtype");
                                events.opened(opened.streamId(), type == null ? "" : type);
                            } else if (message instanceof SpdyDataFrame data) {
                                events.data(data.streamId(), ByteBufUtil.getBytes(data.content()), data.isLast());
                            }
                        } finally {
                            ReferenceCountUtil.release(message);
                        }
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
                        failed = true;
                    }
                });
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
        try {
            channel.writeInbound(Unpooled.wrappedBuffer(bytes));
        } catch (RuntimeException e) {
            failed = true;
        }
    }

    @Override
    public void close() {
        channel.finishAndReleaseAll();
    }
}
