package dev.klave.http;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/** Builds the handler of {@code /clusters/…} once the server's Vert.x instance exists. */
@FunctionalInterface
public interface ProxyFactory {
    Handler<HttpServerRequest> create(Vertx vertx, Executor blocking, BooleanSupplier draining);
}
