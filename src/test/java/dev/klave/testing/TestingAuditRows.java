package dev.klave.testing;

import dev.klave.audit.AuditRow;
import dev.klave.audit.AuditRow.Actor;
import dev.klave.audit.AuditRow.DryRun;
import dev.klave.audit.AuditRow.Outcome;
import dev.klave.audit.AuditRow.Request;
import dev.klave.audit.Channel;
import java.time.Instant;
import java.util.Optional;

/**
 * Audit rows for tests, built as Klave builds them ({@link AuditRow#opened}, then {@link AuditRow#ended}
 * for a row written complete): ana's requests through the proxy unless a test says otherwise.
 */
public final class TestingAuditRows {
    /** Who most tests' requests come from: ana (subject {@code s-1}), credential {@code cred-1}, from 10.0.0.7. */
    public static final Actor ANA = new Actor(Optional.of("s-1"), Optional.of("ana"), Optional.of("cred-1"),
            Optional.of("10.0.0.7"));

    private TestingAuditRows() {}

    /** A request through the proxy on a namespaced resource, naming no object; not a dry run. */
    public static Request request(String verb, String namespace, String resource, String path) {
        return new Request(verb, Optional.of(namespace), Optional.of(resource), Optional.empty(), path, Channel.PROXY,
                DryRun.NO);
    }

    /** A request through the proxy on one object; not a dry run. */
    public static Request request(String verb, String namespace, String resource, String name, String path) {
        return new Request(verb, Optional.of(namespace), Optional.of(resource), Optional.of(name), path,
                Channel.PROXY, DryRun.NO);
    }

    /** The same request, come through {@code channel} (an agent's tool). */
    public static Request through(Request request, Channel channel) {
        return new Request(request.verb(), request.namespace(), request.resource(), request.name(), request.path(),
                channel, request.dryRun());
    }

    /** The same request, sent as a dry run ({@code dryRun=All}). */
    public static Request asDryRun(Request request) {
        return new Request(request.verb(), request.namespace(), request.resource(), request.name(), request.path(),
                request.channel(), DryRun.ALL);
    }

    /** Ana's row of {@code request}, not ended yet. */
    public static AuditRow opened(String id, Instant at, String cluster, Request request) {
        return AuditRow.opened(id, at, ANA, cluster, request);
    }

    /** Ana's row of {@code request}, written complete: answered {@code status} at once, with no error. */
    public static AuditRow ended(String id, Instant at, String cluster, Request request, int status) {
        return opened(id, at, cluster, request).ended(answered(status, at));
    }

    /** An outcome with no error text. */
    public static Outcome answered(int status, Instant at) {
        return new Outcome(status, Optional.empty(), at);
    }
}
