package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * The filters of {@code GET /api/audit} (spec 1 §4 "Audit"); empty means any. {@code channel},
 * {@code tool} and {@code session} pick how a request came (spec 3 "Tool rules" 3); {@code status}
 * the HTTP status it was answered with (issue 32); {@code dryRun} dry runs only, or none.
 */
public record AuditFilter(
        Optional<String> subject,
        Optional<String> cluster,
        Optional<String> namespace,
        Optional<String> verb,
        Optional<String> resource,
        Optional<String> credential,
        Optional<Instant> from,
        Optional<Instant> to,
        boolean includeDiscovery,
        Optional<Channel.Kind> channel,
        Optional<String> tool,
        Optional<String> session,
        Optional<Integer> status,
        Optional<Boolean> dryRun) {
    public AuditFilter {
        requireNonNull(subject, "subject is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(verb, "verb is null");
        requireNonNull(resource, "resource is null");
        requireNonNull(credential, "credential is null");
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
        requireNonNull(channel, "channel is null");
        requireNonNull(tool, "tool is null");
        requireNonNull(session, "session is null");
        requireNonNull(status, "status is null");
        requireNonNull(dryRun, "dryRun is null");
    }

    /** A filter that asks nothing of dry runs. */
    public AuditFilter(Optional<String> subject, Optional<String> cluster, Optional<String> namespace,
            Optional<String> verb, Optional<String> resource, Optional<String> credential, Optional<Instant> from,
            Optional<Instant> to, boolean includeDiscovery, Optional<Channel.Kind> channel, Optional<String> tool,
            Optional<String> session, Optional<Integer> status) {
        this(subject, cluster, namespace, verb, resource, credential, from, to, includeDiscovery, channel, tool,
                session, status, Optional.empty());
    }

    /** A filter that asks nothing of the answer's status. */
    public AuditFilter(Optional<String> subject, Optional<String> cluster, Optional<String> namespace,
            Optional<String> verb, Optional<String> resource, Optional<String> credential, Optional<Instant> from,
            Optional<Instant> to, boolean includeDiscovery, Optional<Channel.Kind> channel, Optional<String> tool,
            Optional<String> session) {
        this(subject, cluster, namespace, verb, resource, credential, from, to, includeDiscovery, channel, tool,
                session, Optional.empty());
    }

    /** A filter that asks nothing of how a request came. */
    public AuditFilter(Optional<String> subject, Optional<String> cluster, Optional<String> namespace,
            Optional<String> verb, Optional<String> resource, Optional<String> credential, Optional<Instant> from,
            Optional<Instant> to, boolean includeDiscovery) {
        this(subject, cluster, namespace, verb, resource, credential, from, to, includeDiscovery, Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    /** The same filter, no later than {@code instant} (an export pages over a fixed set of rows). */
    public AuditFilter until(Instant instant) {
        Instant end = to.filter(given -> given.isBefore(instant)).orElse(instant);
        return new AuditFilter(subject, cluster, namespace, verb, resource, credential, from, Optional.of(end),
                includeDiscovery, channel, tool, session, status, dryRun);
    }

    /** The same filter, keeping the requests answered {@code code}. */
    public AuditFilter withStatus(int code) {
        return new AuditFilter(subject, cluster, namespace, verb, resource, credential, from, to, includeDiscovery,
                channel, tool, session, Optional.of(code), dryRun);
    }

    /** The same filter, between {@code start} and {@code end} (an activity chart's range). */
    public AuditFilter between(Instant start, Instant end) {
        return new AuditFilter(subject, cluster, namespace, verb, resource, credential, Optional.of(start),
                Optional.of(end), includeDiscovery, channel, tool, session, status, dryRun);
    }

    public AuditFilter onlySubject(String subjectId) {
        return new AuditFilter(Optional.of(subjectId), cluster, namespace, verb, resource, credential, from, to,
                includeDiscovery, channel, tool, session, status, dryRun);
    }
}
