package dev.klave.oauth.session;

import dev.klave.account.SubjectId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Agent sessions (spec 3 §2). */
public interface AgentSessionStore {
    /** @throws dev.klave.storage.AlreadyExistsException for an id already stored */
    void create(AgentSession session);

    Optional<AgentSession> findById(String id);

    /** The person's sessions, or everyone's; newest first. */
    List<AgentSession> list(Optional<SubjectId> person);

    /** Ends a session still open; false when it had ended already (the first reason stays). */
    boolean end(String id, Instant at, String reason);

    /** Ends every open session of {@code person} (disable, password change); how many ended. */
    int endAllOf(SubjectId person, Instant at, String reason);

    /** Ends the person's open sessions consented through {@code via} (that identity unlinked). */
    int endAllConsentedVia(SubjectId person, String via, Instant at, String reason);

    void touch(String id, Instant at);
}
