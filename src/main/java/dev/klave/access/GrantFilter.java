package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.util.Optional;

/** Which grants a listing shows (empty: any); revoked ones only when asked for (spec 1 §4 "Grants"). */
public record GrantFilter(Optional<SubjectId> subject, Optional<ClusterId> cluster, boolean includeRevoked) {
    public GrantFilter {
        requireNonNull(subject, "subject is null");
        requireNonNull(cluster, "cluster is null");
    }
}
