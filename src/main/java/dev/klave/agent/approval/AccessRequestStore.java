package dev.klave.agent.approval;

import dev.klave.account.SubjectId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of access requests. Decisions are conditional: each request is decided once, on any replica. */
public interface AccessRequestStore {
    /** @throws dev.klave.storage.AlreadyExistsException when the id is taken */
    void create(AccessRequest request);

    Optional<AccessRequest> findById(String id);

    /**
     * Pending and unexpired at {@code at} → approved, naming the grant it became; false when the
     * request is not pending any more, has run out, or does not exist.
     */
    boolean approve(String id, Instant at, String by, String grantId, Instant grantExpiresAt);

    /** Pending and unexpired at {@code at} → denied; false as for {@link #approve}. */
    boolean deny(String id, Instant at, String by);

    /**
     * The approved requests of the actor's subject (and of its session, when it has one) whose
     * grant runs at {@code now}: unexpired and not revoked. Oldest first.
     */
    List<AccessRequest> inForce(Actor actor, Instant now);

    /** As {@link WriteRequestStore#forDecider}: pending and unexpired first, then the rest, newest first. */
    List<AccessRequest> forDecider(Optional<SubjectId> decider, Instant now, int limit);
}
