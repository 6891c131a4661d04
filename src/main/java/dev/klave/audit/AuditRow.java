package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * One request to a cluster (spec 1 §2 "Audit row"). Written before the request is forwarded, with
 * no status yet; completed with the status and error text when the answer ends. {@code channel}
 * says how it came: through the proxy, or from an agent's tool (spec 3 "Tool rules" 3).
 * {@code dryRun} says the request was sent as a dry run ({@code dryRun=All}): it changed nothing.
 */
public record AuditRow(
        String id,
        Instant at,
        Optional<String> subjectId,
        Optional<String> subjectLogin,
        Optional<String> credentialId,
        String clusterId,
        Optional<String> namespace,
        String verb,
        Optional<String> resource,
        Optional<String> name,
        String path,
        Optional<String> clientIp,
        Optional<Integer> status,
        Optional<String> error,
        Optional<Instant> completedAt,
        Channel channel,
        boolean dryRun) {
    public AuditRow {
        requireNonNull(id, "id is null");
        if (!AuditIds.wellFormed(id)) {
            // Both databases keep the id as its 16 bytes (V37): anything else could not be stored.
            throw new IllegalArgumentException("not an Audit-ID (a UUID in canonical text)");
        }
        requireNonNull(at, "at is null");
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(subjectLogin, "subjectLogin is null");
        requireNonNull(credentialId, "credentialId is null");
        requireNonNull(clusterId, "clusterId is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(verb, "verb is null");
        requireNonNull(resource, "resource is null");
        requireNonNull(name, "name is null");
        requireNonNull(path, "path is null");
        requireNonNull(clientIp, "clientIp is null");
        requireNonNull(status, "status is null");
        requireNonNull(error, "error is null");
        requireNonNull(completedAt, "completedAt is null");
        requireNonNull(channel, "channel is null");
    }

    /** A row of the proxy: every row written before tools existed, and every row the proxy writes. */
    public AuditRow(String id, Instant at, Optional<String> subjectId, Optional<String> subjectLogin,
            Optional<String> credentialId, String clusterId, Optional<String> namespace, String verb,
            Optional<String> resource, Optional<String> name, String path, Optional<String> clientIp,
            Optional<Integer> status, Optional<String> error, Optional<Instant> completedAt) {
        this(id, at, subjectId, subjectLogin, credentialId, clusterId, namespace, verb, resource, name, path, clientIp,
                status, error, completedAt, Channel.PROXY, false);
    }

    /** A row that is no dry run. */
    public AuditRow(String id, Instant at, Optional<String> subjectId, Optional<String> subjectLogin,
            Optional<String> credentialId, String clusterId, Optional<String> namespace, String verb,
            Optional<String> resource, Optional<String> name, String path, Optional<String> clientIp,
            Optional<Integer> status, Optional<String> error, Optional<Instant> completedAt, Channel channel) {
        this(id, at, subjectId, subjectLogin, credentialId, clusterId, namespace, verb, resource, name, path, clientIp,
                status, error, completedAt, channel, false);
    }

    /**
     * How a request ended: its status and, when it failed or was cut, the reason.
     *
     * @param kind whether a check refused the request after its row was written
     */
    public record Completion(String id, int status, Optional<String> error, Instant at, Kind kind) {
        /** What the ending says of the row. */
        public enum Kind {
            /** Forwarded and answered, or cut while forwarded, or refused with its resource kept. */
            ENDED,
            /**
             * The credential check refused the request after its row was written (a check kept in
             * memory turned out stale): the row loses its resource, like the row of any other
             * authentication failure, which listings hide (spec 1 §2 "Audit row").
             */
            REFUSED
        }

        public Completion {
            requireNonNull(id, "id is null");
            if (!AuditIds.wellFormed(id)) {
                throw new IllegalArgumentException("not an Audit-ID (a UUID in canonical text)");
            }
            requireNonNull(error, "error is null");
            requireNonNull(at, "at is null");
            requireNonNull(kind, "kind is null");
        }

        /** The end of a request that was forwarded, or cut while forwarded. */
        public Completion(String id, int status, Optional<String> error, Instant at) {
            this(id, status, error, at, Kind.ENDED);
        }
    }
}
