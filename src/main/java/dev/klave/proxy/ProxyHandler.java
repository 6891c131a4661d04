package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditIds;
import dev.klave.config.ProxyLimits;
import dev.klave.gateway.Admission;
import dev.klave.gateway.Bearer;
import dev.klave.gateway.BearerResolver;
import dev.klave.gateway.Resolved;
import dev.klave.cluster.ClusterEndpoints;
import dev.klave.cluster.ClusterId;
import dev.klave.crypto.TokenHash;
import dev.klave.crypto.TokenKind;
import dev.klave.gateway.Call;
import dev.klave.gateway.Caller;
import dev.klave.gateway.OpenCall;
import dev.klave.gateway.Span;
import dev.klave.gateway.Gateway;
import dev.klave.http.ClientAddresses;
import dev.klave.http.EdgeAudit;
import dev.klave.http.KubeStatus;
import dev.klave.http.UnreadBodies;
import dev.klave.logs.LogFields;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Untrusted;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SSLEngineOptions;
import java.net.InetAddress;
import java.net.URI;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code /clusters/…}: the Vert.x side of the proxy. It checks the path and headers on the
 * event loop, hands the call to the {@link Gateway} (credential, audit row), then forwards with
 * back-pressure both ways; the gateway's open calls cut it on revocation.
 */
public final class ProxyHandler implements Handler<HttpServerRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyHandler.class);

    private final Gateway gateway;
    private final BearerResolver bearers;
    private final ClientAddresses clients;
    private final Upstreams upstreams;
    private final Upgrades upgrades;
    private final BooleanSupplier draining;
    private final CredentialShares shares;
    private final ProxyLimits limits;
    private final AuditIds auditIds;
    private final RefusalAudit refusals;
    private final ProxyMeters meters;

    /**
     * @param limits time-outs towards clusters and each credential's share of them
     * @param streamTls the TLS engine of upgraded connections to clusters (the listener's)
     * @param registry where the proxy's request counters and latency histogram go
     */
    public ProxyHandler(Vertx vertx, Gateway gateway, BearerResolver bearers, ClusterEndpoints endpoints, ClientAddresses clients,
            BooleanSupplier draining, ProxyLimits limits, Clock clock, SSLEngineOptions streamTls, RefusalAudit refusals,
            MeterRegistry registry, dev.klave.recording.Recordings recordings) {
        this.gateway = requireNonNull(gateway, "gateway is null");
        this.bearers = requireNonNull(bearers, "bearers is null");
        this.clients = requireNonNull(clients, "clients is null");
        this.upstreams = new Upstreams(vertx, endpoints);
        this.upgrades = new Upgrades(vertx, streamTls, endpoints, recordings);
        this.draining = requireNonNull(draining, "draining is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.shares = new CredentialShares(vertx, limits.requestsPerCredential(), limits.streamsPerCredential(),
                limits.queueTimeout());
        this.auditIds = new AuditIds(requireNonNull(clock, "clock is null"));
        this.refusals = requireNonNull(refusals, "refusals is null");
        this.meters = new ProxyMeters(registry);
    }

    @Override
    public void handle(HttpServerRequest request) {
        long started = System.nanoTime();
        String auditId = auditIds.next();
        HttpServerResponse response = request.response();
        response.putHeader("Audit-ID", auditId);
        InetAddress client = clients.resolve(InetAddress.ofLiteral(request.remoteAddress().hostAddress()),
                request.headers().getAll("X-Forwarded-For"));
        Optional<String> authorization = Optional.ofNullable(request.getHeader(HttpHeaders.AUTHORIZATION));
        ProxyTarget target;
        try {
            target = EarlyChecks.target(request, draining.getAsBoolean());
        } catch (Refusal refusal) {
            // The refusal's row stands whatever happens to the body afterwards.
            request.exceptionHandler(ignored -> { });
            refuse(request, auditId, client, authorization, refusal, started);
            return;
        }
        boolean upgrade = isUpgrade(request);
        // Hold the body until the credential is checked and the audit row is written.
        request.pause();
        Call call = target.call(request.method().name(), client);
        MeasuredRequest measured = new MeasuredRequest(meters, started, call.info().verb(), spanOf(call, upgrade));
        ProxiedRequest proxied = new ProxiedRequest(request, gateway.ending(auditId, measured));
        Context context = Vertx.currentContext();
        // The bearer presented, resolved here at the proxy's edge (issue 52): from memory while it
        // holds, otherwise looked up on the gateway's thread; the gateway never sees the header's text.
        Optional<TokenHash> token = TokenHash.ofBearer(authorization, TokenKind.CREDENTIAL);
        LongFunction<Bearer> resolve = generation -> bearers.resolve(
                token.orElseThrow(Message.TOKEN_MISSING::refusal), BearerResolver.Edge.PROXY, generation);
        CompletableFuture<Admission> admission = token.flatMap(presented -> bearers.remembered(presented,
                        BearerResolver.Edge.PROXY))
                .map(kept -> gateway.admit(proxied.ending(), new Resolved(kept, resolve), call))
                .orElseGet(() -> gateway.admit(proxied.ending(), resolve, call));
        admission.whenComplete((admitted, failure) -> context.runOnContext(
                ignored -> proceed(proxied, request, target, call, auditId, upgrade, measured,
                        failure == null ? admitted : new Admission.Refused(Message.INTERNAL_ERROR.refusal()))));
    }

    /**
     * Answers a request refused before its credential was checked, once its row is written (or
     * could not be, within the bound): nothing of it is forwarded either way.
     */
    private void refuse(HttpServerRequest request, String auditId, InetAddress client, Optional<String> authorization,
            Refusal refusal, long started) {
        Context context = Vertx.currentContext();
        if (refusal.status() == Message.METHOD_NOT_ALLOWED.status()) {
            request.response().putHeader("Allow", EarlyChecks.ALLOWED_METHODS);
        }
        refusals.record(auditId, new EdgeAudit.Refused(request.method().name(), request.uri(), client,
                EdgeAudit.Refused.bearerOf(authorization), refusal.status(), refusal.getMessage()))
                .whenComplete((written, failure) -> {
                    if (failure != null) {
                        LOG.atWarn().addKeyValue(LogFields.AUDIT_ID, auditId)
                                .log("audit row {} of a refused request not written: {}", auditId, failure.toString());
                    }
                    // Neither cluster nor verb is established: the path failed the proxy's rules.
                    meters.ended(ProxyMeters.UNKNOWN, ProxyMeters.UNKNOWN, refusal.status(), started, true);
                    context.runOnContext(ignored -> answerRefusal(request, refusal, isUpgrade(request)));
                });
    }

    /**
     * Sends a refusal as a Kubernetes Status. A refused upgrade also ends its connection: its
     * client may already be sending the bytes of the protocol it asked for, which are no request.
     * Any other refused request's body is read and dropped, so the connection can serve the next
     * request ({@link UnreadBodies}).
     */
    private static void answerRefusal(HttpServerRequest request, Refusal refusal, boolean upgrade) {
        if (upgrade) {
            request.response().putHeader(HttpHeaders.CONNECTION, "close");
        }
        // A limit's refusal says when a call is served again (RFC 9110 §10.2.3).
        refusal.retryAfterSeconds().ifPresent(seconds -> request.response().putHeader("Retry-After", seconds));
        KubeStatus.send(request.response(), refusal.status(), refusal.getMessage());
        if (upgrade) {
            request.connection().close();
            return;
        }
        UnreadBodies.drop(request, false);
    }

    private void proceed(ProxiedRequest proxied, HttpServerRequest request, ProxyTarget target, Call call,
            String auditId, boolean upgrade, MeasuredRequest measured, Admission admission) {
        OpenCall open;
        switch (admission) {
            case Admission.Refused refused -> {
                // Its row holds the refusal; unless the request ended already, that is its status.
                measured.accept(refused.refusal().status());
                if (proxied.refused()) {
                    answerRefusal(request, refused.refusal(), upgrade);
                }
                return;
            }
            case Admission.Admitted admitted -> open = admitted.call();
        }
        Caller caller = open.caller();
        measured.admittedTo(target.cluster().value());
        if (!proxied.admitted()) {
            return;
        }
        Span span = spanOf(call, upgrade);
        if (span == Span.LONG_LIVED) {
            try {
                open.holding(shares.stream(caller.bearer().id()));
            } catch (Refusal refusal) {
                open.end(refusal.status(), Optional.of(refusal.getMessage()));
                answerRefusal(request, refusal, upgrade);
                return;
            }
        }
        if (upgrade) {
            upgrades.serve(request, open);
            return;
        }
        Optional<Refusal> unrecordable = upgrades.refusedWithoutUpgrade(call);
        if (unrecordable.isPresent()) {
            open.end(unrecordable.get().status(), Optional.of(unrecordable.get().getMessage()));
            answerRefusal(request, unrecordable.get(), false);
            return;
        }
        if (span == Span.LONG_LIVED) {
            forward(proxied, request, open, span);
            return;
        }
        shares.request(caller.bearer().id(), target.cluster()).onComplete(place -> {
            if (place.failed()) {
                Refusal refusal = (Refusal) place.cause();
                open.end(refusal.status(), Optional.of(refusal.getMessage()));
                answerRefusal(request, refusal, false);
                return;
            }
            open.holding(place.result());
            if (!proxied.over()) {
                forward(proxied, request, open, Span.BRIEF);
            }
        });
    }

    private static boolean isUpgrade(HttpServerRequest request) {
        String connection = request.getHeader(HttpHeaders.CONNECTION);
        return request.getHeader(HttpHeaders.UPGRADE) != null
                || (connection != null && connection.toLowerCase(Locale.ROOT).contains("upgrade"));
    }

    /** An upgrade is long-lived whatever its verb: only the transport knows it is one. */
    private static Span spanOf(Call call, boolean upgrade) {
        return upgrade ? Span.LONG_LIVED : call.span();
    }

    /**
     * Sends the request to its cluster and relays the answer, both ways with back-pressure.
     *
     * @param span a long-lived call (a watch, a followed log) may stay silent for hours, has a pool
     *     of its own, and no time-out but its client's, the cluster's and the stream guard's
     */
    private void forward(ProxiedRequest proxied, HttpServerRequest request, OpenCall open, Span span) {
        HttpServerResponse response = request.response();
        String auditId = open.auditId();
        ClusterId cluster = open.call().cluster();
        AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
        response.closeHandler(ignored -> {
            open.answered();
            open.end(499, Optional.of(Message.AUDIT_CLIENT_GONE.text()));
            // The client hung up before the answer ended: end it at the cluster too. A silent
            // watch would otherwise hold its connection to the cluster until the cluster ends it
            // (bench/run: 10,000 closed watches left 10,000 upstream connections open).
            HttpClientRequest upstream = sent.get();
            if (upstream != null && !response.ended()) {
                upstream.connection().close();
            }
        });
        Context context = Vertx.currentContext();
        // Until the cluster answers, a cut call gets the spec's answer instead (spec 1 §7: "request
        // in flight cut off by a change"). Registered before the request exists: only then are its
        // target and impersonation given out.
        open.register(reason -> context.runOnContext(ignored -> {
            Message refused = reason.refusal();
            open.end(refused.status(), Optional.of(refused.text()));
            KubeStatus.send(response, refused);
            request.connection().close();
        }));
        URI server = open.cluster().server();
        int port = server.getPort() == -1 ? 443 : server.getPort();
        String basePath = server.getRawPath() == null ? "" : server.getRawPath();
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(request.method().name()))
                .setHost(server.getHost())
                .setPort(port)
                .setURI(basePath + open.target())
                .setHeaders(ForwardedHeaders.of(request.headers(), open.impersonation()))
                // Waiting for a pooled connection is bounded on its own, and short: a cluster
                // whose connections are all taken answers 503 now rather than after the time-out.
                .setConnectTimeout(limits.queueTimeout().toMillis());
        if (span == Span.BRIEF) {
            options.setIdleTimeout(limits.timeout().toMillis());
        }
        Upstreams.Pool pool = upstreams.client(cluster, open.cluster(), span);
        open.holding(pool.enter());
        pool.client().request(options)
                .recover(failure -> Future.failedFuture(new NoConnection(failure)))
                .compose(upstream -> {
                    sent.set(upstream);
                    if (!proxied.sending(upstream)) {
                        return Future.failedFuture(new ClientSideEnded());
                    }
                    Relays.body(request, upstream);
                    return upstream.response();
                })
                .onSuccess(upstream -> {
                    open.answered();
                    if (response.ended() || response.closed()) {
                        upstream.request().connection().close();
                        return;
                    }
                    if (span == Span.LONG_LIVED) {
                        open.register(reason -> context.runOnContext(ignored -> {
                            open.end(upstream.statusCode(), reason);
                            request.connection().close();
                            upstream.request().connection().close();
                        }));
                    }
                    Relays.answer(upstream, response, open::end);
                })
                .onFailure(failure -> {
                    if (failure instanceof ClientSideEnded || proxied.over()) {
                        return;
                    }
                    Message message = failure instanceof NoConnection none
                            ? UpstreamFailures.classifyConnecting(none.getCause(),
                                    pool.full(Upstreams.REQUEST_CONNECTIONS))
                            : UpstreamFailures.classify(failure);
                    LOG.atWarn().addKeyValue(LogFields.AUDIT_ID, auditId)
                            .log("proxy {} to cluster {} failed: {}", auditId, cluster,
                            Untrusted.text(String.valueOf(failure instanceof NoConnection ? failure.getCause() : failure)));
                    Refusal refusal = message.refusal(cluster.value());
                    open.end(refusal.status(), Optional.of(refusal.getMessage()));
                    if (message == Message.PROXY_CLUSTER_BUSY) {
                        response.putHeader("Retry-After", "1");
                    }
                    answerRefusal(request, refusal, false);
                });
    }

    /** No connection to the cluster could be had: connecting failed, or the pool's wait ran out. */
    private static final class NoConnection extends RuntimeException {
        NoConnection(Throwable cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    /** The client's side ended (its body failed, or it left) before the cluster's request existed. */
    private static final class ClientSideEnded extends RuntimeException {
        ClientSideEnded() {
            super("client side ended", null, false, false);
        }
    }
}
