package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * {@code /healthz} (the process is alive) and {@code /readyz} (the database answers within 2 s, the
 * audit writer runs, and the replica is not shutting down), spec 1 §4 "Health".
 */
final class HealthHandler {
    static final String ALLOWED = "GET, HEAD";

    private final Readiness readiness;
    private final BooleanSupplier draining;
    private final Executor blocking;

    HealthHandler(Readiness readiness, BooleanSupplier draining, Executor blocking) {
        this.readiness = requireNonNull(readiness, "readiness is null");
        this.draining = requireNonNull(draining, "draining is null");
        this.blocking = requireNonNull(blocking, "blocking is null");
    }

    void liveness(HttpServerRequest request) {
        if (!allowed(request)) {
            return;
        }
        answer(request, 200, Message.HEALTH_OK.text());
    }

    void readiness(HttpServerRequest request) {
        if (!allowed(request)) {
            return;
        }
        if (draining.getAsBoolean()) {
            answer(request, 503, "shutting down");
            return;
        }
        Context context = Vertx.currentContext();
        blocking.execute(() -> {
            Optional<String> problem = readiness.problem();
            context.runOnContext(ignored -> {
                if (problem.isEmpty()) {
                    answer(request, 200, Message.HEALTH_OK.text());
                } else {
                    answer(request, 503, problem.get());
                }
            });
        });
    }

    private static boolean allowed(HttpServerRequest request) {
        if (request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD) {
            return true;
        }
        request.response().putHeader("Allow", ALLOWED);
        answer(request, 405, Message.METHOD_NOT_ALLOWED.text());
        return false;
    }

    private static void answer(HttpServerRequest request, int status, String text) {
        request.response().putHeader("Cache-Control", "no-store");
        Responses.text(request.response(), status, text, request.method() == HttpMethod.HEAD);
    }
}
