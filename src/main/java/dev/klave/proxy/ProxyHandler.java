package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.kube.Method;
import dev.klave.audit.AuditIds;
import dev.klave.config.ProxyLimits;
import dev.klave.gateway.Bearer;
import dev.klave.gateway.BearerResolver;
import dev.klave.gateway.Resolved;
import dev.klave.cluster.ClusterEndpoints;
import dev.klave.cluster.ClusterId;
import dev.klave.crypto.TokenHash;
import dev.klave.crypto.TokenKind;
import dev.klave.gateway.Call;
import dev.klave.gateway.CallChain;
import dev.klave.gateway.Carried;
import dev.klave.gateway.CutReason;
import dev.klave.gateway.Transport;
import dev.klave.gateway.Wire;
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
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
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
    private final CallChain chain;
    private final BearerResolver bearers;
    private final ClientAddresses clients;
    private final Upstreams upstreams;
    /** Whether a call is recorded, relayed as data, or refused where recording is required. */
    private final UpgradeRecording recording;
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
    public ProxyHandler(Vertx vertx, Gateway gateway, CallChain chain, BearerResolver bearers,
            ClusterEndpoints endpoints, ClientAddresses clients,
            BooleanSupplier draining, ProxyLimits limits, Clock clock, SSLEngineOptions streamTls, RefusalAudit refusals,
            MeterRegistry registry, dev.klave.recording.Recordings recordings) {
        this.gateway = requireNonNull(gateway, "gateway is null");
        this.chain = requireNonNull(chain, "chain is null");
        this.bearers = requireNonNull(bearers, "bearers is null");
        this.clients = requireNonNull(clients, "clients is null");
        this.upstreams = new Upstreams(vertx, endpoints);
        this.recording = new UpgradeRecording(recordings);
        this.upgrades = new Upgrades(vertx, streamTls, endpoints, recording);
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
        // EarlyChecks refused any other method.
        Call call = target.call(Method.parse(request.method().name()).orElseThrow(), client);
        MeasuredRequest measured = new MeasuredRequest(meters, started, call.info().verb(), spanOf(call, upgrade));
        ProxiedRequest proxied = new ProxiedRequest(request, gateway.ending(auditId, measured));
        Context context = Vertx.currentContext();
        // The bearer presented, resolved here at the proxy's edge (issue 52): from memory while it
        // holds, otherwise looked up on the gateway's thread; the gateway never sees the header's text.
        Optional<TokenHash> token = TokenHash.ofBearer(authorization, TokenKind.CREDENTIAL);
        LongFunction<Bearer> resolve = generation -> bearers.resolve(
                token.orElseThrow(Message.TOKEN_MISSING::refusal), BearerResolver.Edge.PROXY, generation);
        Forwarding forwarding = new Forwarding(proxied, request, target, call, upgrade, measured, context);
        token.flatMap(presented -> bearers.remembered(presented, BearerResolver.Edge.PROXY))
                .ifPresentOrElse(kept -> chain.run(proxied.ending(), new Resolved(kept, resolve), call, forwarding),
                        () -> chain.run(proxied.ending(), resolve, call, forwarding));
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
     * The proxy's transport of one request (issue 52): what the {@link CallChain} hands an admitted
     * call to — a place among its credential's requests or streams, then the forwarding or the
     * upgrade — and what a refusal or a cut of the stream guard does to it. Every step runs on the
     * request's event loop.
     */
    private final class Forwarding implements Transport {
        private final ProxiedRequest proxied;
        private final HttpServerRequest request;
        private final ProxyTarget target;
        private final Call call;
        private final boolean upgrade;
        private final MeasuredRequest measured;
        private final Context context;
        /** What a cut does once the call is under way: until then, the specification's answer. */
        private Consumer<CutReason> cutting;

        Forwarding(ProxiedRequest proxied, HttpServerRequest request, ProxyTarget target, Call call, boolean upgrade,
                MeasuredRequest measured, Context context) {
            this.proxied = proxied;
            this.request = request;
            this.target = target;
            this.call = call;
            this.upgrade = upgrade;
            this.measured = measured;
            this.context = context;
        }

        @Override
        public Executor executor() {
            return command -> context.runOnContext(ignored -> command.run());
        }

        @Override
        public void refused(Refusal refusal) {
            // Its row holds the refusal; unless the request ended already, that is its status.
            measured.accept(refusal.status());
            if (proxied.refused()) {
                answerRefusal(request, refusal, upgrade);
            }
        }

        @Override
        public void cut(CutReason reason, Carried open) {
            if (cutting != null) {
                cutting.accept(reason);
                return;
            }
            // Before the cluster answers, a cut call gets the spec's answer (spec 1 §7: "request in
            // flight cut off by a change").
            Message refused = reason.refusal();
            open.end(refused.status(), Optional.of(refused.text()));
            if (!request.response().ended() && !request.response().closed()) {
                KubeStatus.send(request.response(), refused);
            }
            request.connection().close();
        }

        @Override
        public void send(Wire wire, Carried open) {
            measured.admittedTo(target.cluster().value());
            if (!proxied.admitted()) {
                return;
            }
            Span span = spanOf(call, upgrade);
            if (span == Span.LONG_LIVED) {
                try {
                    open.holding(shares.stream(open.bearer().id()));
                } catch (Refusal refusal) {
                    end(open, refusal);
                    return;
                }
            }
            if (upgrade) {
                cutting = upgrades.serve(request, wire, open);
                return;
            }
            Optional<Refusal> unrecordable = recording.plain(call);
            if (unrecordable.isPresent()) {
                end(open, unrecordable.get());
                return;
            }
            if (span == Span.LONG_LIVED) {
                forward(wire, open, span);
                return;
            }
            shares.request(open.bearer().id(), target.cluster()).onComplete(place -> {
                if (place.failed()) {
                    end(open, (Refusal) place.cause());
                    return;
                }
                open.holding(place.result());
                if (!proxied.over() && !open.ended()) {
                    forward(wire, open, Span.BRIEF);
                }
            });
        }

        /** Ends the call with a refusal of the proxy's own, answered to the client. */
        private void end(Carried open, Refusal refusal) {
            open.answered();
            open.end(refusal.status(), Optional.of(refusal.getMessage()));
            answerRefusal(request, refusal, upgrade);
        }

        /**
         * Sends the request to its cluster and relays the answer, both ways with back-pressure.
         *
         * @param span a long-lived call (a watch, a followed log) may stay silent for hours, has a pool
         *     of its own, and no time-out but its client's, the cluster's and the stream guard's
         */
        private void forward(Wire wire, Carried open, Span span) {
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
            RequestOptions options = new RequestOptions()
                    .setMethod(HttpMethod.valueOf(wire.method().name()))
                    .setHost(wire.uri().getHost())
                    .setPort(wire.port())
                    .setURI(wire.target())
                    .setHeaders(ForwardedHeaders.of(request.headers(), wire.impersonation()))
                    // Waiting for a pooled connection is bounded on its own, and short: a cluster
                    // whose connections are all taken answers 503 now rather than after the time-out.
                    .setConnectTimeout(limits.queueTimeout().toMillis());
            if (span == Span.BRIEF) {
                options.setIdleTimeout(limits.timeout().toMillis());
            }
            Upstreams.Pool pool = upstreams.client(cluster, wire.cluster(), span);
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
                        if (response.ended() || response.closed()) {
                            open.answered();
                            upstream.request().connection().close();
                            return;
                        }
                        if (span == Span.LONG_LIVED) {
                            // Streaming now: a cut ends it with the answer's status and closes both sides.
                            cutting = reason -> {
                                open.end(upstream.statusCode(), reason);
                                request.connection().close();
                                upstream.request().connection().close();
                            };
                        } else {
                            open.answered();
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
