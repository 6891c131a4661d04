package dev.klave.account;

import java.time.Instant;
import java.util.Optional;

/** Storage of web sessions by the hash of their id. */
public interface SessionStore {
    void create(WebSession session);

    Optional<WebSession> findByHash(String idHash);

    /** Closes every open session of the subject in one statement; returns how many. */
    int closeAll(SubjectId subjectId, Instant now);

    /** Closes every open session of the subject but one (a password change keeps the caller's). */
    int closeAllExcept(SubjectId subjectId, String keptIdHash, Instant now);

    /** Whether the subject ever had a session: whether the person has ever signed in (rows are kept). */
    boolean everOpened(SubjectId subjectId);

    /** When each of {@code subjects} last signed in (their newest session's start); one who never did is absent. */
    java.util.Map<SubjectId, Instant> lastOpened(java.util.Collection<SubjectId> subjects);
}
