package dev.klave.http;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * Builds the handler of {@code /clusters/…} once the server's Vert.x instance exists, and the
 * audit of requests the edge refuses before any route (written where the proxy writes its rows).
 */
@FunctionalInterface
public interface ProxyFactory {
    Proxy create(Vertx vertx, Executor blocking, BooleanSupplier draining);

    /** The proxy's handler and the audit of the edge's refusals. */
    record Proxy(Handler<HttpServerRequest> handler, EdgeAudit refusals) {
        public Proxy {
            java.util.Objects.requireNonNull(handler, "handler is null");
            java.util.Objects.requireNonNull(refusals, "refusals is null");
        }
    }
}
