package dev.klave.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
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

    StrictRequestDecoder(HttpServerOptions options) {
        super(options);
    }

    @Override
    protected void decode(ChannelHandlerContext context, ByteBuf buffer, List<Object> out) throws Exception {
        if (inHead && !folded) {
            scanHead(buffer);
        }
        int before = out.size();
        super.decode(context, buffer, out);
        for (int i = before; i < out.size(); i++) {
            Object decoded = out.get(i);
            if (decoded instanceof HttpRequest) {
                inHead = false;
            }
            if (decoded instanceof LastHttpContent) {
                inHead = true;
                headStarted = false;
                folded = false;
            }
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
                headStarted = true;
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
