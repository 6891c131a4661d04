package dev.klave.http;

import io.vertx.core.http.HttpServerRequest;

/**
 * The body of a request answered without reading it. It is read and dropped, so that a client
 * still sending can read the answer instead of meeting a reset — up to a limit, past which the
 * connection is closed: nobody may make Klave read a body without end.
 */
public final class UnreadBodies {
    /** How much of a body is read and dropped before the connection is closed instead. */
    public static final long DRAIN_LIMIT = 1024 * 1024;

    private UnreadBodies() {}

    /**
     * Reads and drops what is left of {@code request}'s body.
     *
     * @param closeAtEnd close the connection once the body has ended (the answer said it would)
     */
    public static void drop(HttpServerRequest request, boolean closeAtEnd) {
        if (request.isEnded()) {
            // Read whole already (a request without a body, answered after its row was written):
            // there is nothing to drop, and Vert.x refuses a handler on it.
            if (closeAtEnd) {
                request.connection().close();
            }
            return;
        }
        long[] dropped = {0};
        request.handler(chunk -> {
            dropped[0] += chunk.length();
            if (dropped[0] > DRAIN_LIMIT) {
                request.connection().close();
            }
        });
        if (closeAtEnd) {
            request.endHandler(ignored -> request.connection().close());
        }
        request.resume();
    }
}
