package dev.klave.proxy;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.Http1xServerConnection;
import io.vertx.core.net.NetSocket;

/**
 * One of three places Klave touches a Vert.x internal (with the event loop in {@link Upstreams}
 * and the channel's reading in {@link Relays}): taking an HTTP/1.1 connection over as a raw
 * socket. Vert.x's public {@code toNetSocket()} accepts only GET and CONNECT upgrades, but kubectl's
 * SPDY/3.1 upgrade is a POST. Pinned to the Vert.x version in pom.xml and
 * covered by the kubectl SPDY test.
 */
final class RawConnection {
    private RawConnection() {}

    static Future<NetSocket> takeOver(HttpServerRequest request) {
        if (request.connection() instanceof Http1xServerConnection connection) {
            return connection.netSocket();
        }
        return Future.failedFuture("upgrades need an HTTP/1.1 connection");
    }
}
