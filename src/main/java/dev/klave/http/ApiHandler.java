package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Principal;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.store.DatabaseUnavailableException;
import dev.klave.messages.Untrusted;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code /api} and the {@code /v1} endpoints. Applies the {@code /api} conventions of spec 1 §4 in order — route (404/405), origin (403),
 * body size (413) — then runs the endpoint on a virtual thread and writes its answer.
 */
final class ApiHandler implements Handler<HttpServerRequest> {
    /** Spec 1 §8: JSON bodies under /api up to 64 KiB. */
    static final int BODY_LIMIT = 64 * 1024;
    /** How much of an oversized body is read and dropped before the connection is cut. */
    private static final long DRAIN_LIMIT = 1024 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);

    private final ApiRoutes routes;
    private final OriginPolicy origins;
    private final ClientAddresses clients;
    private final Executor blocking;
    private final Authenticator authenticator;

    ApiHandler(ApiRoutes routes, OriginPolicy origins, ClientAddresses clients, Executor blocking,
            Authenticator authenticator) {
        this.routes = requireNonNull(routes, "routes is null");
        this.origins = requireNonNull(origins, "origins is null");
        this.clients = requireNonNull(clients, "clients is null");
        this.blocking = requireNonNull(blocking, "blocking is null");
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
    }

    @Override
    public void handle(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        String method = request.method().name();
        ApiRoutes.Match match = routes.match(method, request.path());
        switch (match) {
            case ApiRoutes.Unknown unknown -> Responses.error(response, Message.NOT_FOUND);
            case ApiRoutes.WrongMethod wrong -> Responses.methodNotAllowed(response, wrong.allowed());
            case ApiRoutes.Found found -> {
                // The origin check guards browser sessions under /api; the /v1 endpoints carry
                // their own proof (an ID token, a signature) and have none (spec 1 §4 "CI and forge").
                if (request.path().startsWith("/api/") && origins.refuses(method,
                        Optional.ofNullable(request.getHeader("Origin")),
                        Optional.ofNullable(request.getHeader("Sec-Fetch-Site")))) {
                    Responses.error(response, Message.CROSS_ORIGIN);
                    return;
                }
                readBody(request, body -> dispatch(request, found, body));
            }
        }
    }

    /**
     * Reads the body up to {@link #BODY_LIMIT}. A declared length over the limit is refused before
     * any byte is read; a body that streams past the limit without one is refused the moment it
     * does. Either way the connection is closed after the 413, since the rest of the body is
     * never read.
     */
    private void readBody(HttpServerRequest request, Handler<Buffer> whenComplete) {
        HttpServerResponse response = request.response();
        String declared = request.getHeader("Content-Length");
        if (declared != null && exceedsLimit(declared)) {
            tooLarge(request);
            return;
        }
        Buffer body = Buffer.buffer();
        request.handler(chunk -> {
            if (response.ended()) {
                return;
            }
            if (body.length() + chunk.length() > BODY_LIMIT) {
                tooLarge(request);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.endHandler(ignored -> {
            if (!response.ended()) {
                whenComplete.handle(body);
            }
        });
        request.exceptionHandler(failure -> LOG.debug("request body not read: {}", failure.toString()));
    }

    private static boolean exceedsLimit(String declared) {
        try {
            return Long.parseLong(declared.strip()) > BODY_LIMIT;
        } catch (NumberFormatException e) {
            // The HTTP codec has already refused a malformed length; be safe regardless.
            return true;
        }
    }

    /**
     * Answers 413 and closes the connection. The rest of the body is read and dropped first (up to
     * {@link #DRAIN_LIMIT}) so that a client still sending can read the answer instead of meeting
     * a reset; one that keeps sending past that is cut off.
     */
    private static void tooLarge(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        response.putHeader("Connection", "close");
        Responses.error(response, Message.BODY_TOO_LARGE);
        if (request.isEnded()) {
            request.connection().close();
            return;
        }
        long[] dropped = {0};
        request.handler(chunk -> {
            dropped[0] += chunk.length();
            if (dropped[0] > DRAIN_LIMIT) {
                request.connection().close();
            }
        });
        request.endHandler(ignored -> request.connection().close());
    }

    private void dispatch(HttpServerRequest request, ApiRoutes.Found found, Buffer body) {
        ApiRequest apiRequest = new ApiRequest(request.method().name(), request.path(), found.parameters(),
                toMap(request.params()), toMap(request.headers()), body.getBytes(), clientAddress(request),
                Optional.empty());
        Context context = Vertx.currentContext();
        blocking.execute(() -> {
            Answer answer = invoke(found, apiRequest);
            context.runOnContext(ignored -> answer.write(request.response()));
        });
    }

    private Answer invoke(ApiRoutes.Found route, ApiRequest request) {
        try {
            ApiResponse response = route.endpoint().handle(authorize(route.access(), request));
            if (response.body().orElse(null) instanceof ApiResponse.RawBody raw) {
                return target -> Responses.raw(target, response.status(), raw, response.headers());
            }
            byte[] body = response.body().map(Json::write).orElse(new byte[0]);
            return target -> Responses.json(target, response.status(), body, response.headers());
        } catch (Refusal refusal) {
            return target -> Responses.error(target, refusal.status(), refusal.getMessage());
        } catch (InterruptedException e) {
            // Only the shutdown interrupts endpoint work: the request is cut because we are stopping.
            Thread.currentThread().interrupt();
            return target -> Responses.error(target, Message.RESTARTING);
        } catch (DatabaseUnavailableException e) {
            LOG.error("{} {}: database unavailable: {}", request.method(), Untrusted.text(request.path()),
                    Untrusted.text(e.getMessage()));
            return target -> Responses.error(target, Message.DATABASE_UNAVAILABLE);
        } catch (Exception | LinkageError | AssertionError e) {
            // The cause goes to the log only (spec 1 §7: 500 "error interno").
            LOG.error("{} {} failed", request.method(), Untrusted.text(request.path()), e);
            return target -> Responses.error(target, Message.INTERNAL_ERROR);
        }
    }

    /** Spec 1 §5 "Access classes": 401 without a valid session, 403 for a non-admin on admin routes. */
    private ApiRequest authorize(Access access, ApiRequest request) {
        if (access == Access.ANONYMOUS) {
            return request;
        }
        Principal caller = authenticator.authenticate(request.headers("Cookie"));
        if (access == Access.ADMIN && !caller.admin()) {
            throw Message.ADMIN_ONLY.refusal();
        }
        return request.authenticatedAs(caller);
    }

    private InetAddress clientAddress(HttpServerRequest request) {
        InetAddress peer = InetAddress.ofLiteral(request.remoteAddress().hostAddress());
        return clients.resolve(peer, request.headers().getAll("X-Forwarded-For"));
    }

    private static Map<String, List<String>> toMap(MultiMap multiMap) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (String name : multiMap.names()) {
            map.put(name, new ArrayList<>(multiMap.getAll(name)));
        }
        return map;
    }

    @FunctionalInterface
    private interface Answer {
        void write(HttpServerResponse response);
    }
}
