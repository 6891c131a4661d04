package dev.klave.agent.approval;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import java.util.Optional;

/**
 * Who an agent acts as, stored on each request: the account, and the bot credential or the
 * delegated session used (spec 3 §1.1).
 */
public record Actor(SubjectId subject, Optional<String> credentialId, Optional<String> sessionId) {
    public Actor {
        requireNonNull(subject, "subject is null");
        requireNonNull(credentialId, "credentialId is null");
        requireNonNull(sessionId, "sessionId is null");
        if (credentialId.filter(String::isBlank).isPresent() || sessionId.filter(String::isBlank).isPresent()) {
            throw new IllegalArgumentException("a credential or session id is not blank");
        }
    }
}
