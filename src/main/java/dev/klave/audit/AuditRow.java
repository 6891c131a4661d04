package dev.klave.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * One request to a cluster (spec 1 §2 "Audit row"): who asked ({@link Actor}), on which cluster,
 * what ({@link Request}), and, once it ended, how ({@link Outcome}). Written before the request is
 * forwarded, with no outcome yet ({@link #opened}); completed with its status and error text when
 * the answer ends ({@link Completion}). A request refused before anything was forwarded is written
 * with its outcome at once ({@link #ended}).
 *
 * <p>Names are kept as the text the database holds: {@code audit} sits below {@code account} and
 * {@code cluster}, which write to it, so it cannot use their id types; and a row reads as it was
 * written, whatever became of its subject or cluster since.
 *
 * @param id the Audit-ID, a UUID in canonical text: both databases keep it as its 16 bytes (V37). Text
 *     like every other holder of it (the {@code Audit-ID} header, {@link Completion}, {@link AuditCursor},
 *     the logs), so it is checked here rather than wrapped
 * @param cluster the cluster id of the request's path; the empty string when the request was refused
 *     before a cluster id could be read from it (a path the rules refuse, an id that cannot be one)
 */
public record AuditRow(String id, Instant at, Actor actor, String cluster, Request request, Optional<Outcome> outcome) {
    public AuditRow {
        requireNonNull(id, "id is null");
        if (!AuditIds.wellFormed(id)) {
            // Both databases keep the id as its 16 bytes (V37): anything else could not be stored.
            throw new IllegalArgumentException("not an Audit-ID (a UUID in canonical text)");
        }
        requireNonNull(at, "at is null");
        requireNonNull(actor, "actor is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(request, "request is null");
        requireNonNull(outcome, "outcome is null");
    }

    /** The row of a request about to be forwarded or refused: it has no outcome yet. */
    public static AuditRow opened(String id, Instant at, Actor actor, String cluster, Request request) {
        return new AuditRow(id, at, actor, cluster, request, Optional.empty());
    }

    /**
     * This row written complete: a request refused before anything was forwarded, answered
     * with {@code outcome}. A request ends once.
     */
    public AuditRow ended(Outcome outcome) {
        if (this.outcome.isPresent()) {
            throw new IllegalStateException("audit row " + id + " has already ended");
        }
        return new AuditRow(id, at, actor, cluster, request, Optional.of(requireNonNull(outcome, "outcome is null")));
    }

    /**
     * Who made the request. All but the address may be missing: a request refused before its
     * token named a credential has no credential or subject, and a subject's login is missing when
     * the database could not say it while the refusal was recorded.
     *
     * @param subjectId the subject whose grants the request was made with: the credential's owner,
     *     or the person of an agent's session
     * @param subjectLogin that subject's login when the request was made
     * @param credentialId the credential, or the agent session, the request's token belongs to
     * @param clientIp the address the request came from
     */
    public record Actor(Optional<String> subjectId, Optional<String> subjectLogin, Optional<String> credentialId,
            Optional<String> clientIp) {
        public Actor {
            requireNonNull(subjectId, "subjectId is null");
            requireNonNull(subjectLogin, "subjectLogin is null");
            requireNonNull(credentialId, "credentialId is null");
            requireNonNull(clientIp, "clientIp is null");
        }
    }

    /**
     * What was asked, as the API server reads it: the verb, and, for a resource request, its
     * namespace, resource and name; the path within the cluster; how it came ({@link Channel}: the
     * proxy, or an agent's tool, spec 3 "Tool rules" 3); and whether it was a dry run. A request
     * with no resource (API discovery, an authentication failure) is hidden from listings unless
     * they ask for it (spec 1 §2 "Audit row").
     */
    public record Request(String verb, Optional<String> namespace, Optional<String> resource, Optional<String> name,
            String path, Channel channel, DryRun dryRun) {
        public Request {
            requireNonNull(verb, "verb is null");
            requireNonNull(namespace, "namespace is null");
            requireNonNull(resource, "resource is null");
            requireNonNull(name, "name is null");
            requireNonNull(path, "path is null");
            requireNonNull(channel, "channel is null");
            requireNonNull(dryRun, "dryRun is null");
        }
    }

    /** Whether a request was sent as a dry run, the Kubernetes API's {@code dryRun=All}: one that changed nothing. */
    public enum DryRun {
        /** Sent without {@code dryRun}: a read, or a write that took effect if it was allowed. */
        NO,
        /** Sent with {@code dryRun=All}. */
        ALL
    }

    /**
     * How a request ended: its HTTP status, the error text when it failed or was cut, and when.
     * Status and time come together or not at all: the completions' table requires both, and every
     * row written complete has both.
     */
    public record Outcome(int status, Optional<String> error, Instant completedAt) {
        public Outcome {
            requireNonNull(error, "error is null");
            requireNonNull(completedAt, "completedAt is null");
        }
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
