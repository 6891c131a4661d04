package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.AuditIds;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditWriter;
import dev.klave.config.ProxyLimits;
import dev.klave.credential.Credential;
import dev.klave.http.ClientAddresses;
import dev.klave.http.EdgeAudit;
import dev.klave.http.KubeStatus;
import dev.klave.http.UnreadBodies;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Untrusted;
import dev.klave.storage.DatabaseUnavailableException;
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
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code /clusters/…}: checks the path and headers on the event loop, the credential and
 * the audit row on a virtual thread, then forwards with back-pressure both ways.
 */
public final class ProxyHandler implements Handler<HttpServerRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyHandler.class);

    private final ProxyAuthenticator authenticator;
    private final AuditWriter audit;
    private final ClientAddresses clients;
    private final Upstreams upstreams;
    private final Upgrades upgrades;
    private final Executor blocking;
    private final BooleanSupplier draining;
    private final OpenStreams streams;
    private final CredentialShares shares;
    private final ProxyLimits limits;
    private final Clock clock;
    private final AuditIds auditIds;
    private final RefusalAudit refusals;

    /**
     * @param limits time-outs towards clusters and each credential's share of them
     * @param streamTls the TLS engine of upgraded connections to clusters (the listener's)
     */
    public ProxyHandler(Vertx vertx, ProxyAuthenticator authenticator, AuditWriter audit, ClientAddresses clients,
            Executor blocking, BooleanSupplier draining, OpenStreams streams, ProxyLimits limits, Clock clock,
            SSLEngineOptions streamTls, RefusalAudit refusals) {
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.clients = requireNonNull(clients, "clients is null");
        this.upstreams = new Upstreams(vertx);
        this.streams = requireNonNull(streams, "streams is null");
        this.upgrades = new Upgrades(vertx, streamTls, streams);
        this.blocking = requireNonNull(blocking, "blocking is null");
        this.draining = requireNonNull(draining, "draining is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.shares = new CredentialShares(vertx, limits.requestsPerCredential(), limits.streamsPerCredential(),
                limits.queueTimeout());
        this.clock = requireNonNull(clock, "clock is null");
        this.auditIds = new AuditIds(clock);
        this.refusals = requireNonNull(refusals, "refusals is null");
    }

    @Override
    public void handle(HttpServerRequest request) {
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
            refuse(request, auditId, client, authorization, refusal);
            return;
        }
        boolean upgrade = isUpgrade(request);
        // Hold the body until the credential is checked and the audit row is written.
        request.pause();
        ProxiedRequest proxied = new ProxiedRequest(request, new Ending(auditId, streams, audit, clock));
        Context context = Vertx.currentContext();
        RequestInfo info = RequestInfo.of(request.method().name(), target.path(), target.query());
        Optional<ProxyCaller> remembered = authenticator.remembered(authorization, target.cluster());
        if (remembered.isPresent()) {
            admitRemembered(proxied, request, target, info, remembered.get(), auditId, client, authorization, upgrade,
                    context);
            return;
        }
        blocking.execute(() -> {
            Admission admission = admit(auditId, target, info, authorization, client);
            context.runOnContext(ignored -> proceed(proxied, request, target, info, auditId, upgrade, admission));
        });
    }

    /**
     * Answers a request refused before its credential was checked, once its row is written (or
     * could not be, within the bound): nothing of it is forwarded either way.
     */
    private void refuse(HttpServerRequest request, String auditId, InetAddress client, Optional<String> authorization,
            Refusal refusal) {
        Context context = Vertx.currentContext();
        if (refusal.status() == Message.METHOD_NOT_ALLOWED.status()) {
            request.response().putHeader("Allow", EarlyChecks.ALLOWED_METHODS);
        }
        refusals.record(auditId, new EdgeAudit.Refused(request.method().name(), request.uri(), client, authorization,
                refusal.status(), refusal.getMessage())).whenComplete((written, failure) -> {
                    if (failure != null) {
                        LOG.warn("audit row {} of a refused request not written: {}", auditId, failure.toString());
                    }
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
        KubeStatus.send(request.response(), refusal.status(), refusal.getMessage());
        if (upgrade) {
            request.connection().close();
            return;
        }
        UnreadBodies.drop(request, false);
    }

    private void proceed(ProxiedRequest proxied, HttpServerRequest request, ProxyTarget target, RequestInfo info,
            String auditId, boolean upgrade, Admission admission) {
        if (admission.refusal().isPresent()) {
            if (proxied.refused()) {
                answerRefusal(request, admission.refusal().get(), upgrade);
            }
            return;
        }
        if (!proxied.admitted()) {
            return;
        }
        ProxyCaller caller = admission.caller().orElseThrow();
        boolean longLived = upgrade || info.verb().equals("watch") || target.query().contains("follow=true");
        if (longLived) {
            try {
                proxied.ending().holding(shares.stream(caller.credential().id()));
            } catch (Refusal refusal) {
                proxied.ending().end(refusal.status(), Optional.of(refusal.getMessage()));
                answerRefusal(request, refusal, upgrade);
                return;
            }
        }
        if (upgrade) {
            upgrades.serve(request, target, caller, auditId, proxied.ending());
            return;
        }
        if (longLived) {
            forward(proxied, request, target, caller, auditId, true);
            return;
        }
        shares.request(caller.credential().id(), target.cluster()).onComplete(place -> {
            if (place.failed()) {
                Refusal refusal = (Refusal) place.cause();
                proxied.ending().end(refusal.status(), Optional.of(refusal.getMessage()));
                answerRefusal(request, refusal, false);
                return;
            }
            proxied.ending().holding(place.result());
            if (!proxied.over()) {
                forward(proxied, request, target, caller, auditId, false);
            }
        });
    }

    /**
     * A request whose credential check is kept in memory: nothing blocks and nothing is queried
     * for it. Its row is written, and the access counter as of that commit (AuditStore.write) says
     * whether the kept check still holds (access unchanged between the check and the durable row,
     * on every replica); if access changed, the full check decides, and a refusal completes the
     * row already written. The request is forwarded only after both.
     */
    private void admitRemembered(ProxiedRequest proxied, HttpServerRequest request, ProxyTarget target,
            RequestInfo info, ProxyCaller caller, String auditId, InetAddress client, Optional<String> authorization,
            boolean upgrade, Context context) {
        audit.record(admittedRow(auditId, target, info, client, caller)).whenComplete((generation, failure) -> context.runOnContext(ignored -> {
            if (failure != null) {
                auditFailed(auditId, failure);
                proceed(proxied, request, target, info, auditId, upgrade,
                        new Admission(Optional.empty(), Optional.of(Message.AUDIT_UNAVAILABLE.refusal())));
                return;
            }
            authenticator.observed(generation);
            if (generation == caller.generation()) {
                proceed(proxied, request, target, info, auditId, upgrade,
                        new Admission(Optional.of(caller), Optional.empty()));
                return;
            }
            blocking.execute(() -> {
                Admission admission = recheck(auditId, target, authorization);
                context.runOnContext(again -> proceed(proxied, request, target, info, auditId, upgrade, admission));
            });
        }));
    }

    /** The full check of a request whose row is already written; a refusal completes that row. */
    private Admission recheck(String auditId, ProxyTarget target, Optional<String> authorization) {
        Refusal refusal;
        try {
            return new Admission(Optional.of(authenticator.admit(authorization, target.cluster(), ignored -> { })),
                    Optional.empty());
        } catch (Refusal refused) {
            refusal = refused;
        } catch (RuntimeException e) {
            refusal = unexpected(auditId, e);
        }
        audit.complete(new AuditRow.Completion(auditId, refusal.status(), Optional.of(refusal.getMessage()),
                clock.instant(), true));
        return new Admission(Optional.empty(), Optional.of(refusal));
    }

    private static boolean isUpgrade(HttpServerRequest request) {
        String connection = request.getHeader(HttpHeaders.CONNECTION);
        return request.getHeader(HttpHeaders.UPGRADE) != null
                || (connection != null && connection.toLowerCase(Locale.ROOT).contains("upgrade"));
    }

    private record Admission(Optional<ProxyCaller> caller, Optional<Refusal> refusal) {}

    /**
     * Checks the credential and writes the audit row before anything is forwarded. A refused
     * request leaves a completed row when its credential is known, so an owner sees it too.
     */
    private Admission admit(String auditId, ProxyTarget target, RequestInfo info, Optional<String> authorization,
            InetAddress client) {
        AtomicReference<Credential> known = new AtomicReference<>();
        try {
            ProxyCaller caller = authenticator.admit(authorization, target.cluster(), known::set);
            try {
                authenticator.observed(awaitRow(admittedRow(auditId, target, info, client, caller)));
            } catch (Exception e) {
                auditFailed(auditId, e);
                return new Admission(Optional.empty(), Optional.of(Message.AUDIT_UNAVAILABLE.refusal()));
            }
            return new Admission(Optional.of(caller), Optional.empty());
        } catch (Refusal refusal) {
            Optional<Credential> credential = Optional.ofNullable(known.get());
            // Authentication failures are recorded too; they have no resource, like discovery. The
            // answer waits for the row, so the Audit-ID it carries is found (spec 1 §1.3).
            try {
                awaitRow(row(auditId, target, new RequestInfo(info.verb(), Optional.empty(), info.namespace(),
                        info.name()), client, credential, credential.map(found -> found.subjectId().value()),
                        credential.flatMap(authenticator::ownerLogin), Optional.of(refusal.status()),
                        Optional.of(refusal.getMessage())));
            } catch (Exception e) {
                LOG.warn("audit row {} of a refused request not written: {}", auditId, e.toString());
            }
            return new Admission(Optional.empty(), Optional.of(refusal));
        } catch (RuntimeException e) {
            return new Admission(Optional.empty(), Optional.of(unexpected(auditId, e)));
        }
    }

    /**
     * Waits, on a virtual thread, for a row to be durable ({@link AuditWriter#record} bounds the
     * wait); an interrupt (the replica stopping) ends the wait and is kept for the caller's thread.
     */
    private long awaitRow(AuditRow row) throws Exception {
        try {
            return audit.record(row).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw e;
        }
    }

    /**
     * The row of an admitted request was not durable in time, or failed: the request is refused
     * (503) and not forwarded. Its completion is queued too, so that a row written late still
     * says what the client got.
     */
    private void auditFailed(String auditId, Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.ExecutionException ? failure.getCause() : failure;
        LOG.error("audit row {} not written; request refused: {}", auditId, String.valueOf(cause));
        Message refused = Message.AUDIT_UNAVAILABLE;
        audit.complete(new AuditRow.Completion(auditId, refused.status(), Optional.of(refused.text()),
                clock.instant()));
    }

    /** A check that could not be made: the database is down (spec 1 §7: 503), or anything else (500). */
    private static Refusal unexpected(String auditId, RuntimeException e) {
        if (e instanceof DatabaseUnavailableException) {
            LOG.warn("proxy admission of {}: {}", auditId, e.getMessage());
            return Message.DATABASE_UNAVAILABLE.refusal();
        }
        LOG.error("proxy admission failed for {}", auditId, e);
        return Message.INTERNAL_ERROR.refusal();
    }

    /** The row of a request whose credential passed, written before it is forwarded. */
    private AuditRow admittedRow(String auditId, ProxyTarget target, RequestInfo info, InetAddress client,
            ProxyCaller caller) {
        return row(auditId, target, info, client, Optional.of(caller.credential()),
                Optional.of(caller.subject().id().value()), Optional.of(caller.subject().login().value()),
                Optional.empty(), Optional.empty());
    }

    private AuditRow row(String auditId, ProxyTarget target, RequestInfo info, InetAddress client,
            Optional<Credential> credential, Optional<String> subjectId, Optional<String> login,
            Optional<Integer> status, Optional<String> error) {
        return new AuditRow(auditId, clock.instant(), subjectId, login, credential.map(Credential::id),
                target.cluster().value(), info.namespace(), info.verb(), info.resource(), info.name(),
                target.path(), Optional.of(client.getHostAddress()), status, error,
                status.isPresent() ? Optional.of(clock.instant()) : Optional.empty());
    }

    /**
     * Sends the request to its cluster and relays the answer, both ways with back-pressure.
     *
     * @param longLived a watch or followed log: it may stay silent for hours, has a pool of its
     *     own, and no time-out but its client's, the cluster's and the stream guard's
     */
    private void forward(ProxiedRequest proxied, HttpServerRequest request, ProxyTarget target, ProxyCaller caller,
            String auditId, boolean longLived) {
        HttpServerResponse response = request.response();
        URI server = caller.cluster().server();
        int port = server.getPort() == -1 ? 443 : server.getPort();
        String basePath = server.getRawPath() == null ? "" : server.getRawPath();
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(request.method().name()))
                .setHost(server.getHost())
                .setPort(port)
                .setURI(basePath + target.upstreamUri())
                .setHeaders(ForwardedHeaders.of(request.headers(), caller))
                // Waiting for a pooled connection is bounded on its own, and short: a cluster
                // whose connections are all taken answers 503 now rather than after the time-out.
                .setConnectTimeout(limits.queueTimeout().toMillis());
        if (!longLived) {
            options.setIdleTimeout(limits.timeout().toMillis());
        }
        Ending ending = proxied.ending();
        AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
        response.closeHandler(ignored -> {
            streams.closed(auditId);
            ending.end(499, Optional.of(Message.AUDIT_CLIENT_GONE.text()));
            // The client hung up before the answer ended: end it at the cluster too. A silent
            // watch would otherwise hold its connection to the cluster until the cluster ends it
            // (bench/run: 10,000 closed watches left 10,000 upstream connections open).
            HttpClientRequest upstream = sent.get();
            if (upstream != null && !response.ended()) {
                upstream.connection().close();
            }
        });
        Context context = Vertx.currentContext();
        // Until the cluster answers, an invalidated credential gets the spec's 403 instead of the
        // answer (spec 1 §7: "request in flight cut off by a change").
        streams.open(new OpenStreams.Stream(auditId, caller, target.cluster(),
                reason -> context.runOnContext(ignored -> {
                    Message refused = Message.CREDENTIAL_NO_LONGER_VALID;
                    ending.end(refused.status(), Optional.of(refused.text()));
                    KubeStatus.send(response, refused);
                    request.connection().close();
                })));
        upstreams.client(target.cluster(), caller.cluster(), longLived).request(options)
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
                    streams.closed(auditId);
                    if (response.ended() || response.closed()) {
                        upstream.request().connection().close();
                        return;
                    }
                    if (longLived) {
                        streams.open(new OpenStreams.Stream(auditId, caller, target.cluster(),
                                reason -> context.runOnContext(ignored -> {
                                    ending.end(upstream.statusCode(), Optional.of(reason));
                                    request.connection().close();
                                    upstream.request().connection().close();
                                })));
                    }
                    Relays.answer(upstream, response, ending::end);
                })
                .onFailure(failure -> {
                    if (failure instanceof ClientSideEnded || proxied.over()) {
                        return;
                    }
                    Message message = failure instanceof NoConnection none ? UpstreamFailures.classifyConnecting(none.getCause())
                            : UpstreamFailures.classify(failure);
                    LOG.warn("proxy {} to cluster {} failed: {}", auditId, target.cluster(),
                            Untrusted.text(String.valueOf(failure instanceof NoConnection ? failure.getCause() : failure)));
                    Refusal refusal = message.refusal(target.cluster().value());
                    ending.end(refusal.status(), Optional.of(refusal.getMessage()));
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
