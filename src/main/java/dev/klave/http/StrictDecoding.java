package dev.klave.http;

import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.Http1xServerConnection;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts {@link StrictRequestDecoder} in place of Vert.x's own on each new HTTP/1.x connection.
 * Vert.x calls the connection handler on the connection's event loop right after it built the
 * pipeline and before it reads a byte from it, so no request is ever decoded leniently. The
 * handler keeps Vert.x's name for it: Vert.x removes the decoder by that name when a connection
 * is taken over (upgrades).
 *
 * <p>A Vert.x internal ({@code Http1xServerConnection}), like {@code proxy.RawConnection}: pinned
 * to the Vert.x version in pom.xml and covered by {@code RequestFramingTest}.
 */
final class StrictDecoding {
    private static final Logger LOG = LoggerFactory.getLogger(StrictDecoding.class);
    private static final String DECODER = "httpDecoder";

    private StrictDecoding() {}

    static void install(Http1xServerConnection http1, HttpServerOptions options, ConnectionDeadlines deadlines) {
        var pipeline = http1.channelHandlerContext().pipeline();
        if (!(pipeline.get(DECODER) instanceof VertxHttpRequestDecoder)) {
            // Fail closed: a connection that would be decoded leniently is not served at all.
            LOG.error("Vert.x's request decoder is not where this Vert.x version puts it; connection closed");
            http1.close();
            return;
        }
        pipeline.replace(DECODER, DECODER, new StrictRequestDecoder(options, deadlines));
    }
}
