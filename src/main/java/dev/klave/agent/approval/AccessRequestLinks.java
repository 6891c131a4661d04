package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.Optional;

/**
 * Which access request gave the access an audited request was made under (issue 41): the approved
 * request of the row's subject on the row's cluster whose access ran at the row's time — a
 * person's or a bot's, never a delegated session's lend. The audit's pages show it beside the row.
 * A row is read as it was written: a subject or a cluster that is not a valid id (a refusal before
 * anyone was known) links to none, and the requests are not asked.
 */
public final class AccessRequestLinks {
    /** The requests' question (see {@link AccessRequestStore#coveringAt}). */
    @FunctionalInterface
    public interface Covering {
        Optional<AccessRequest> at(SubjectId subject, ClusterId cluster, Instant at);
    }

    private final Covering covering;

    public AccessRequestLinks(Covering covering) {
        this.covering = requireNonNull(covering, "covering is null");
    }

    /** The id of the request that covered {@code subject} on {@code cluster} at {@code at}, if any. */
    public Optional<String> at(String subject, String cluster, Instant at) {
        requireNonNull(subject, "subject is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(at, "at is null");
        if (!SubjectId.isValid(subject) || !ClusterId.isValid(cluster)) {
            return Optional.empty();
        }
        return covering.at(new SubjectId(subject), new ClusterId(cluster), at).map(AccessRequest::id);
    }
}
