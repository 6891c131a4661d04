package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import dev.klave.kube.Method;
import dev.klave.audit.AuditIds;
import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditRow.Actor;
import dev.klave.audit.AuditWriter;
import dev.klave.audit.Channel;
import dev.klave.cluster.ClusterId;
import dev.klave.gateway.Bearer;
import dev.klave.gateway.BearerResolver;
import dev.klave.gateway.CredentialChecks;
import dev.klave.gateway.RequestInfo;
import dev.klave.http.EdgeAudit;
import dev.klave.messages.Refusal;
import dev.klave.messages.Untrusted;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The audit row of a request refused before its credential was checked: a path the rules refuse,
 * a cluster id that cannot be one, {@code Impersonate-*} headers, a method never forwarded, and
 * the edge's own refusals (framing, h2c). Spec 1 §1.3 wants one row per request, so each gets its
 * row, completed with the refusal, before it is answered. The credential and its owner are named
 * when the request carried a known token: a {@code kubectl --as} probe with a valid credential is
 * somebody's, and the audit says whose.
 */
public final class RefusalAudit implements EdgeAudit {
    /** The part of a refused target kept in its row. */
    private static final int PATH_KEPT = 2048;

    private final BearerResolver bearers;
    private final CredentialChecks checks;
    private final AuditWriter audit;
    private final Executor blocking;
    private final Clock clock;
    private final AuditIds ids;
    private final Duration recordWait;

    public RefusalAudit(BearerResolver bearers, CredentialChecks checks, AuditWriter audit, Executor blocking,
            Duration recordWait, Clock clock) {
        this.recordWait = requireNonNull(recordWait, "recordWait is null");
        this.bearers = requireNonNull(bearers, "bearers is null");
        this.checks = requireNonNull(checks, "checks is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.blocking = requireNonNull(blocking, "blocking is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.ids = new AuditIds(clock);
    }

    @Override
    public Recorded record(Refused refused) {
        String auditId = ids.next();
        return new Recorded(auditId, record(auditId, refused));
    }

    /**
     * Writes the row of a refused request under an Audit-ID already given to it. Completes once
     * the row is durable, or exceptionally when it could not be written in time (the audit
     * timeout, which also bounds the credential's lookup); the refusal is answered either way,
     * since nothing is forwarded.
     */
    CompletableFuture<Void> record(String auditId, Refused refused) {
        CompletableFuture<Owned> credential = refused.bearer().isPresent()
                ? CompletableFuture.supplyAsync(() -> {
                    Optional<Bearer> found = bearers.identify(refused.bearer().get());
                    return new Owned(found, found.flatMap(checks::ownerLogin));
                }, blocking)
                : CompletableFuture.completedFuture(new Owned(Optional.empty(), Optional.empty()));
        return credential
                .thenCompose(found -> audit.record(row(auditId, refused, found)))
                .orTimeout(recordWait.toMillis(), TimeUnit.MILLISECONDS)
                .thenApply(written -> null);
    }

    /** The credential a refused request carried, and its owner's login. */
    private record Owned(Optional<Bearer> credential, Optional<String> login) {}

    private AuditRow row(String auditId, Refused refused, Owned owned) {
        Optional<Bearer> credential = owned.credential();
        String target = refused.target();
        int question = target.indexOf('?');
        String rawPath = question < 0 ? target : target.substring(0, question);
        String cluster = "";
        String path = rawPath;
        Optional<ProxyTarget.Split> split = ProxyTarget.Split.of(rawPath)
                .filter(cut -> ClusterId.isValid(cut.cluster()));
        if (split.isPresent()) {
            cluster = split.get().cluster();
            path = split.get().path();
        }
        var now = clock.instant();
        // What the request was about, when its target is one the proxy can read (a refused
        // Impersonate-* header, a method the API does not serve, a replica shutting down): such a
        // refusal names its resource, so the listing shows it without include_discovery (that rule
        // hides API discovery and authentication failures only, spec 1 §2 "Audit").
        Optional<ProxyTarget> readable = readable(refused);
        Optional<RequestInfo> info = readable.map(read -> RequestInfo.of(Method.parse(refused.method()).orElseThrow(),
                read.path(), read.query()));
        Actor actor = new Actor(credential.map(found -> found.owner().value()), owned.login(),
                credential.map(Bearer::id), Optional.of(refused.client().getHostAddress()));
        AuditRow.Request request = new AuditRow.Request(
                info.map(RequestInfo::verb).orElse(Untrusted.text(refused.method().toLowerCase(Locale.ROOT), 40)),
                info.flatMap(RequestInfo::namespace), info.flatMap(RequestInfo::resource),
                info.flatMap(RequestInfo::name), Untrusted.text(path, PATH_KEPT), Channel.PROXY,
                readable.filter(read -> read.query().dryRun()).isPresent() ? AuditRow.DryRun.ALL : AuditRow.DryRun.NO);
        return AuditRow.opened(auditId, now, actor, cluster, request)
                .ended(new AuditRow.Outcome(refused.status(), Optional.of(refused.error()), now));
    }

    /** The request's target, when its method and target pass the proxy's rules. */
    private static Optional<ProxyTarget> readable(Refused refused) {
        if (Method.parse(refused.method()).isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ProxyTarget.parse(refused.target()));
        } catch (Refusal unreadable) {
            return Optional.empty();
        }
    }
}
