package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/** The filters of {@code GET /api/audit} (spec 1 §4 "Audit"); empty means any. */
public record AuditFilter(
        Optional<String> subject,
        Optional<String> cluster,
        Optional<String> namespace,
        Optional<String> verb,
        Optional<String> resource,
        Optional<String> credential,
        Optional<Instant> from,
        Optional<Instant> to,
        boolean includeDiscovery) {
    public AuditFilter {
        requireNonNull(subject, "subject is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(verb, "verb is null");
        requireNonNull(resource, "resource is null");
        requireNonNull(credential, "credential is null");
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
    }

    /** The same filter, no later than {@code instant} (an export pages over a fixed set of rows). */
    public AuditFilter until(Instant instant) {
        Instant end = to.filter(given -> given.isBefore(instant)).orElse(instant);
        return new AuditFilter(subject, cluster, namespace, verb, resource, credential, from, Optional.of(end),
                includeDiscovery);
    }

    public AuditFilter onlySubject(String subjectId) {
        return new AuditFilter(Optional.of(subjectId), cluster, namespace, verb, resource, credential, from, to,
                includeDiscovery);
    }
}
