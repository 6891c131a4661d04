package dev.klave.agent.approval;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.List;

/** Storage of clusters' access policies; a cluster without a row has {@link AccessPolicy#defaults}. */
public interface AccessPolicyStore {
    AccessPolicy find(ClusterId cluster);

    /** Replaces the cluster's policy and its deciders, in the caller's transaction. */
    void save(AccessPolicy policy, Instant at, String by);

    /** The clusters whose requests {@code person} is named to decide. */
    List<ClusterId> decidedBy(SubjectId person);
}
