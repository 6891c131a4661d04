package dev.klave.access;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of eligible grants (issue 41). */
public interface EligibleGrantStore {
    void create(EligibleGrant grant);

    Optional<EligibleGrant> findById(String id);

    /** Matching the filters (empty: any), newest first, at most {@code limit}. */
    List<EligibleGrant> find(Optional<SubjectId> subject, Optional<ClusterId> cluster, boolean includeRevoked,
            int limit);

    /** Marks it revoked; false when it already was or does not exist. */
    boolean revoke(String id, Instant at, String by);
}
