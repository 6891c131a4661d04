package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Untrusted;
import dev.klave.storage.DatabaseUnavailableException;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the mounted API prefixes ({@code /api}, {@code /v1}, …). Applies each route's
 * {@link RoutePolicy} in the order of spec 1 §4 — route (404/405), origin (403), body size (413),
 * body type (415) — then authenticates the caller the route's {@link Access} asks for, runs the
 * endpoint on a virtual thread and writes its answer.
 */
final class ApiHandler implements Handler<HttpServerRequest> {
    private static final String FORM_TYPE = "application/x-www-form-urlencoded";

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
        try {
            route(request);
        } catch (RuntimeException e) {
            failed(request, e);
        }
    }

    /**
     * A bug on the event loop must not leave the client waiting for an answer that never comes:
     * answer 500 (once) and close.
     */
    private static void failed(HttpServerRequest request, RuntimeException e) {
        LOG.error("request to {} failed before its endpoint ran", Untrusted.text(request.path()), e);
        HttpServerResponse response = request.response();
        if (!response.ended() && !response.headWritten()) {
            response.putHeader("Connection", "close");
            Responses.error(response, RoutePolicy.API, Message.INTERNAL_ERROR);
        }
    }

    private void route(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        String method = request.method().name();
        ApiRoutes.Match match = routes.match(method, request.path());
        switch (match) {
            case ApiRoutes.Unknown unknown -> Responses.error(response, unknown.policy(), Message.NOT_FOUND);
            case ApiRoutes.WrongMethod wrong when method.equals("OPTIONS") && wrong.policy().crossOriginReads() ->
                    Responses.preflight(response, wrong.allowed());
            case ApiRoutes.WrongMethod wrong -> {
                response.putHeader("Allow", String.join(", ", wrong.allowed()));
                Responses.error(response, wrong.policy(), Message.METHOD_NOT_ALLOWED);
            }
            case ApiRoutes.Found found -> {
                RoutePolicy policy = found.policy();
                if (origins.refuses(policy.origin(), method, Optional.ofNullable(request.getHeader("Origin")),
                        Optional.ofNullable(request.getHeader("Sec-Fetch-Site")))) {
                    Responses.error(response, policy, Message.CROSS_ORIGIN);
                    return;
                }
                readBody(request, policy, body -> dispatch(request, found, body));
            }
        }
    }

    /**
     * Reads the body up to the route's limit. A declared length over the limit is refused before
     * any byte is read; a body that streams past the limit without one is refused the moment it
     * does. Either way the connection is closed after the 413, since the rest of the body is
     * never read.
     */
    private void readBody(HttpServerRequest request, RoutePolicy policy, Handler<Buffer> whenComplete) {
        HttpServerResponse response = request.response();
        String declared = request.getHeader("Content-Length");
        if (declared != null && exceedsLimit(declared, policy.bodyLimit())) {
            tooLarge(request, policy);
            return;
        }
        Buffer body = Buffer.buffer();
        request.handler(chunk -> {
            if (response.ended()) {
                return;
            }
            if (body.length() + chunk.length() > policy.bodyLimit()) {
                tooLarge(request, policy);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.endHandler(ignored -> {
            if (!response.ended()) {
                try {
                    whenComplete.handle(body);
                } catch (RuntimeException e) {
                    failed(request, e);
                }
            }
        });
        request.exceptionHandler(failure -> {
            // A body the decoder refused (a chunk size that is not hex, say): 400 and close, as
            // for a refused head; a client that went away has nothing to read.
            LOG.debug("request body not read: {}", failure.toString());
            if (!response.ended() && !response.closed()) {
                response.putHeader("Connection", "close");
                Responses.error(response, policy, Message.REQUEST_MALFORMED);
                request.connection().close();
            }
        });
    }

    private static boolean exceedsLimit(String declared, int limit) {
        try {
            return Long.parseLong(declared.strip()) > limit;
        } catch (NumberFormatException e) {
            // The HTTP codec has already refused a malformed length; be safe regardless.
            return true;
        }
    }

    /**
     * Answers 413 and closes the connection. The rest of the body is read and dropped first (up to
     * {@link UnreadBodies#DRAIN_LIMIT}) so that a client still sending can read the answer instead of meeting
     * a reset; one that keeps sending past that is cut off.
     */
    private static void tooLarge(HttpServerRequest request, RoutePolicy policy) {
        HttpServerResponse response = request.response();
        response.putHeader("Connection", "close");
        Responses.error(response, policy, Message.BODY_TOO_LARGE);
        if (request.isEnded()) {
            request.connection().close();
            return;
        }
        UnreadBodies.drop(request, true);
    }

    private void dispatch(HttpServerRequest request, ApiRoutes.Found found, Buffer body) {
        RoutePolicy policy = found.policy();
        Map<String, List<String>> query;
        try {
            query = toMap(request.params());
        } catch (IllegalArgumentException e) {
            // A query with a broken escape (`%zz`, a lone `%`): refused like any malformed request.
            Responses.error(request.response(), policy, Message.REQUEST_MALFORMED);
            return;
        }
        ApiRequest apiRequest = new ApiRequest(request.method().name(), request.path(), found.parameters(),
                query, toMap(request.headers()), body.getBytes(), clientAddress(request), new Caller.Anonymous());
        if (policy.body() == BodyType.FORM) {
            Optional<ApiRequest> decoded = decodeForm(request, policy, apiRequest, body);
            if (decoded.isEmpty()) {
                return;
            }
            apiRequest = decoded.get();
        }
        ApiRequest ready = apiRequest;
        Context context = Vertx.currentContext();
        if (!policy.endsWithClient()) {
            blocking.execute(() -> {
                Answer answer = invoke(found, ready);
                context.runOnContext(ignored -> answer.write(request.response()));
            });
            return;
        }
        // The worker is interrupted if the client closes the connection before its answer: the
        // work it asked for stops and claims nothing (spec 3 §4, a tool call whose client left).
        AtomicReference<Thread> worker = new AtomicReference<>();
        AtomicBoolean left = new AtomicBoolean();
        request.response().closeHandler(ignored -> {
            left.set(true);
            Thread running = worker.getAndSet(null);
            if (running != null) {
                running.interrupt();
            }
        });
        blocking.execute(() -> {
            worker.set(Thread.currentThread());
            if (left.get()) {
                worker.set(null);
                return;
            }
            Answer answer = invoke(found, ready);
            if (worker.getAndSet(null) == null) {
                // Interrupted for a client that left: the flag is ours, not the next task's.
                Thread.interrupted();
            }
            context.runOnContext(ignored -> answer.write(request.response()));
        });
    }

    /** RFC 6749 §4.1.3: the token request is form-encoded; anything else is refused here (415, 400). */
    private static Optional<ApiRequest> decodeForm(HttpServerRequest request, RoutePolicy policy,
            ApiRequest apiRequest, Buffer body) {
        String type = Optional.ofNullable(request.getHeader("Content-Type")).orElse("");
        int semicolon = type.indexOf(';');
        String mediaType = (semicolon < 0 ? type : type.substring(0, semicolon)).strip();
        if (!mediaType.equalsIgnoreCase(FORM_TYPE)) {
            Responses.error(request.response(), policy, Message.FORM_REQUIRED);
            return Optional.empty();
        }
        try {
            QueryStringDecoder decoder = new QueryStringDecoder(body.toString(StandardCharsets.UTF_8),
                    StandardCharsets.UTF_8, false);
            return Optional.of(apiRequest.withForm(decoder.parameters()));
        } catch (IllegalArgumentException e) {
            Responses.error(request.response(), policy, Message.FORM_INVALID);
            return Optional.empty();
        }
    }

    private Answer invoke(ApiRoutes.Found route, ApiRequest request) {
        RoutePolicy policy = route.policy();
        try {
            ApiResponse response = route.endpoint().handle(authorize(route.access(), request));
            if (response.body().orElse(null) instanceof ApiResponse.RawBody raw) {
                return target -> Responses.raw(target, policy, response.status(), raw, response.headers());
            }
            if (response.body().orElse(null) instanceof ApiResponse.StreamedBody streamed) {
                String what = request.method() + " " + Untrusted.text(request.path());
                return target -> StreamedAnswer.start(target, policy, response.status(), streamed, response.headers(),
                        blocking, what);
            }
            byte[] body = response.body().map(Json::write).orElse(new byte[0]);
            return target -> Responses.json(target, policy, response.status(), body, response.headers());
        } catch (Refusal refusal) {
            return target -> Responses.error(target, policy, refusal);
        } catch (InterruptedException e) {
            // Only the shutdown interrupts endpoint work: the request is cut because we are stopping.
            Thread.currentThread().interrupt();
            return target -> Responses.error(target, policy, Message.RESTARTING);
        } catch (DatabaseUnavailableException e) {
            LOG.error("{} {}: database unavailable: {}", request.method(), Untrusted.text(request.path()),
                    Untrusted.text(e.getMessage()));
            return target -> Responses.error(target, policy, Message.DATABASE_UNAVAILABLE);
        } catch (Exception | LinkageError | AssertionError e) {
            // The cause goes to the log only (spec 1 §7: 500 "error interno").
            LOG.error("{} {} failed", request.method(), Untrusted.text(request.path()), e);
            return target -> Responses.error(target, policy, Message.INTERNAL_ERROR);
        }
    }

    /** Spec 1 §5 "Access classes": 401 without a valid session or token, 403 for a non-admin on admin routes. */
    private ApiRequest authorize(Access access, ApiRequest request) {
        return switch (access) {
            case ANONYMOUS -> request;
            case SESSION -> request.authenticatedAs(authenticator.session(request.headers("Cookie")));
            case ADMIN -> {
                Caller.Session caller = authenticator.session(request.headers("Cookie"));
                if (!caller.admin()) {
                    throw Message.ADMIN_ONLY.refusal();
                }
                yield request.authenticatedAs(caller);
            }
        };
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
