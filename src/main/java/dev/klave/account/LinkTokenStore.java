package dev.klave.account;

import java.time.Instant;
import java.util.Optional;

/** Storage of link tokens, by hash. */
public interface LinkTokenStore {
    void create(LinkToken token);

    Optional<LinkToken> findByHash(String tokenHash);

    /**
     * Marks the token consumed if it is still usable at {@code now}; false when it was consumed,
     * revoked or expired first. One statement, so two concurrent uses cannot both succeed.
     */
    boolean consume(String id, Instant now);

    /** Revokes every pending link of the subject; returns how many were revoked. */
    int revokePending(SubjectId subjectId, Instant now);

    /** Whether the subject holds a link usable at {@code now} (an invitation or a reset/linking link). */
    boolean hasPending(SubjectId subjectId, Instant now);

    /** For each of {@code subjects} with a pending link at {@code now}, when its last one expires. */
    java.util.Map<SubjectId, Instant> pendingUntil(java.util.Collection<SubjectId> subjects, Instant now);
}
