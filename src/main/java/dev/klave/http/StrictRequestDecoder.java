package dev.klave.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import java.util.List;
import java.util.Optional;

/**
 * Vert.x's HTTP/1.x request decoder with {@link RequestFraming}'s rules: a request that breaks one
 * fails to decode, so Vert.x hands it to the server's invalid-request handler instead of a route,
 * and nothing after it on the connection is read.
 *
 * <p>Netty joins a continued header line (obs-fold) to the one before without a trace, so the head
 * is scanned for one before Netty reads it. Netty consumes a head line by line, and only whole
 * lines, so each scan starts at the beginning of a line.
 *
 * <p>A chunked body is read by {@link ChunkedBody} ahead of Netty, which reads chunk lines
 * leniently: a line outside RFC 9112 §7.1 fails the request as Netty's own refusals do (a last
 * content whose decoding failed), and nothing after it on the connection is read.
 *
 * <p>One of the places Klave touches a Vert.x internal ({@code VertxHttpRequestDecoder}, public but
 * in an {@code impl} package): pinned to the Vert.x version in pom.xml and covered by
 * {@code RequestFramingTest}, which sends every refused form on a raw socket.
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {
    /** Between the first byte of a request and the end of its head. */
    private boolean inHead = true;
    /** A line of this head with content has been seen (empty lines before a request are allowed). */
    private boolean headStarted;
    private boolean folded;
    /** The version the request line named, when it is not one Klave speaks; null otherwise. */
    private String unsupportedVersion;
    /** The chunked body being read, while there is one. */
    private ChunkedBody chunked;
    /** How many bytes from the buffer's reader index {@link #chunked} has already read. */
    private int chunkedAhead;
    /** A chunk line was refused: the rest of the connection is dropped unread. */
    private boolean refused;

    private final ConnectionDeadlines deadlines;

    StrictRequestDecoder(HttpServerOptions options, ConnectionDeadlines deadlines) {
        super(options);
        this.deadlines = deadlines;
    }

    @Override
    protected void decode(ChannelHandlerContext context, ByteBuf buffer, List<Object> out) throws Exception {
        if (refused) {
            buffer.skipBytes(buffer.readableBytes());
            return;
        }
        if (chunked != null && !chunked.done() && !scanChunks(buffer, out)) {
            return;
        }
        if (inHead && !folded) {
            scanHead(buffer);
        }
        int before = out.size();
        int readerBefore = buffer.readerIndex();
        super.decode(context, buffer, out);
        chunkedAhead = Math.max(0, chunkedAhead - (buffer.readerIndex() - readerBefore));
        for (int i = before; i < out.size(); i++) {
            Object decoded = out.get(i);
            if (decoded instanceof HttpRequest request) {
                inHead = false;
                if (request.decoderResult().isSuccess() && HttpUtil.isTransferEncodingChunked(request)) {
                    chunked = new ChunkedBody();
                    chunkedAhead = 0;
                }
            }
            if (decoded instanceof LastHttpContent) {
                inHead = true;
                headStarted = false;
                folded = false;
                chunked = null;
                chunkedAhead = 0;
            }
        }
    }

    /**
     * Reads the chunked body's bytes that arrived since the last call; false when a line broke
     * the grammar, which is then handed on as the failed end of the request.
     */
    private boolean scanChunks(ByteBuf buffer, List<Object> out) {
        try {
            chunkedAhead += chunked.scan(buffer, buffer.readerIndex() + chunkedAhead, buffer.writerIndex());
            return true;
        } catch (ChunkedBody.MalformedChunk e) {
            refused = true;
            chunked = null;
            buffer.skipBytes(buffer.readableBytes());
            LastHttpContent failed = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            failed.setDecoderResult(DecoderResult.failure(e));
            out.add(failed);
            return false;
        }
    }

    /** Looks for a line that starts with a space or tab before the head's empty line (RFC 9112 §5.2). */
    private void scanHead(ByteBuf buffer) {
        boolean lineStart = true;
        boolean lineEmpty = true;
        for (int i = buffer.readerIndex(), end = buffer.writerIndex(); i < end; i++) {
            byte b = buffer.getByte(i);
            if (b == '\n') {
                if (lineEmpty && headStarted) {
                    return; // the end of the head: what follows is a body or the next request
                }
                lineStart = true;
                lineEmpty = true;
                continue;
            }
            if (lineStart && headStarted && (b == ' ' || b == '\t')) {
                folded = true;
                return;
            }
            lineStart = false;
            if (b != '\r') {
                lineEmpty = false;
                if (!headStarted) {
                    headStarted = true;
                    deadlines.headStarted();
                }
            }
        }
    }

    /**
     * A request line naming another protocol version is read as HTTP/1.1 and refused once its
     * head is read: the answer is then written as HTTP/1.1 (Vert.x answers in the request's version).
     */
    @Override
    protected HttpMessage createMessage(String[] initialLine) {
        HttpMessage message = super.createMessage(initialLine);
        HttpVersion version = message.protocolVersion();
        if (!RequestFraming.supported(version)) {
            unsupportedVersion = version.text();
            message.setProtocolVersion(HttpVersion.HTTP_1_1);
        }
        return message;
    }

    /** Called by Netty once per request, when its head is read and before its body is. */
    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage message) {
        if (message instanceof HttpRequest request) {
            String version = unsupportedVersion;
            unsupportedVersion = null;
            RequestFraming.check(request, Optional.ofNullable(version), folded);
        }
        return super.isContentAlwaysEmpty(message);
    }
}
