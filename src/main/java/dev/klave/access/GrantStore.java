package dev.klave.access;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of grants. */
public interface GrantStore {
    void create(Grant grant);

    Optional<Grant> findById(String id);

    /** Grants matching the filters (empty filter: any), newest first. */
    List<Grant> find(Optional<SubjectId> subject, Optional<ClusterId> cluster, boolean includeRevoked);

    /** Marks the grant revoked; false when it was already revoked or does not exist. */
    boolean revoke(String id, Instant at, String by);
}
