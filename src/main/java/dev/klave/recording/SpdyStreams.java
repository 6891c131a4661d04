package dev.klave.recording;

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
 * One direction of a SPDY/3.1 connection (kubectl's fallback for exec and attach), read with
 * Netty's SPDY codec rather than by hand: frames from pieces of any size, header blocks inflated
 * with SPDY's dictionary in the direction's one zlib context. Each stream kubectl opens names its
 * type in its {@code streamtype} header; data frames carry its bytes by stream id. A frame the
 * codec cannot read makes it {@link #failed()} for good.
 */
final class SpdyStreams {
    /** What a direction carries. */
    interface Events {
        void opened(int stream, String type);

        void data(int stream, byte[] bytes, boolean last);
    }

    private final EmbeddedChannel channel;
    private boolean failed;

    SpdyStreams(Events events) {
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

    boolean failed() {
        return failed;
    }

    void feed(byte[] bytes) {
        if (failed) {
            return;
        }
        try {
            channel.writeInbound(Unpooled.wrappedBuffer(bytes));
        } catch (RuntimeException e) {
            failed = true;
        }
    }

    void close() {
        channel.finishAndReleaseAll();
    }
}
