package dev.klave.access;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.storage.Keyset;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Storage of grants. */
public interface GrantStore {
    void create(Grant grant);

    Optional<Grant> findById(String id);

    /** Grants matching the filters (empty filter: any), newest first. */
    List<Grant> find(Optional<SubjectId> subject, Optional<ClusterId> cluster, boolean includeRevoked);

    /**
     * Up to {@code limit} grants matching {@code filter}, newest first (then by id), after
     * {@code after} when given, each with its holder's login and state: one query whatever the
     * number of rows.
     */
    List<ListedGrant> list(GrantFilter filter, Optional<Keyset> after, int limit);

    /** How many grants active at {@code now} each of {@code subjects} holds; a subject with none is absent. */
    Map<SubjectId, Integer> countActive(Collection<SubjectId> subjects, Instant now);

    /** Marks the grant revoked; false when it was already revoked or does not exist. */
    boolean revoke(String id, Instant at, String by);
}
