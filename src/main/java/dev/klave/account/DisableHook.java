package dev.klave.account;

import java.time.Instant;

/**
 * Something else that must end when an account is disabled, inside the same transaction (spec 1
 * §3: credentials are revoked together with the sessions and links).
 */
@FunctionalInterface
public interface DisableHook {
    void onDisable(SubjectId subjectId, Instant now);
}
