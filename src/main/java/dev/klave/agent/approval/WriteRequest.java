package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * A held write (spec 3 §2 "Write request", §3): what an agent asked to change, the call that will
 * make the change, its preview and where it stands.
 *
 * @param decider who decides: the person the agent acts for; empty for a bot's, which
 *     administrators decide
 * @param namespace empty for a cluster-scoped object
 * @param preview JSON text made by the tool (current object, dry-run result, changes marked)
 * @param decidedBy the login of the person who decided
 */
public record WriteRequest(String id, Actor actor, Optional<SubjectId> decider, ClusterId cluster, String namespace,
        String tool, String verb, String resource, String name, String argumentsHash, HeldCall call, String preview,
        WriteStatus status, Instant createdAt, Instant expiresAt, Optional<Instant> decidedAt,
        Optional<String> decidedBy, Optional<Instant> executedAt) {
    /** Spec 3 §8: a preview over 256 KiB is rejected by the tool; none is ever stored. */
    public static final int MAX_PREVIEW_BYTES = 256 * 1024;

    public WriteRequest {
        requireNonNull(id, "id is null");
        requireNonNull(actor, "actor is null");
        requireNonNull(decider, "decider is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(namespace, "namespace is null");
        requireNonNull(tool, "tool is null");
        requireNonNull(verb, "verb is null");
        requireNonNull(resource, "resource is null");
        requireNonNull(name, "name is null");
        requireNonNull(argumentsHash, "argumentsHash is null");
        requireNonNull(call, "call is null");
        requireNonNull(preview, "preview is null");
        requireNonNull(status, "status is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(decidedAt, "decidedAt is null");
        requireNonNull(decidedBy, "decidedBy is null");
        requireNonNull(executedAt, "executedAt is null");
        if (!id.startsWith(RequestIds.WRITE)) {
            throw new IllegalArgumentException("a write request's id begins with " + RequestIds.WRITE);
        }
        if (tool.isBlank() || verb.isBlank() || resource.isBlank() || argumentsHash.isBlank()) {
            throw new IllegalArgumentException("a write request names its tool, verb, resource and arguments");
        }
        if (preview.getBytes(StandardCharsets.UTF_8).length > MAX_PREVIEW_BYTES) {
            throw new IllegalArgumentException("a preview is at most " + MAX_PREVIEW_BYTES + " bytes");
        }
        if (!expiresAt.isAfter(createdAt)) {
            throw new IllegalArgumentException("a write request expires after it was made");
        }
    }

    /** The status as it stands at {@code now}: a pending request past its expiry reads as expired. */
    public WriteStatus statusAt(Instant now) {
        if (status == WriteStatus.PENDING && !now.isBefore(expiresAt)) {
            return WriteStatus.EXPIRED;
        }
        return status;
    }
}
