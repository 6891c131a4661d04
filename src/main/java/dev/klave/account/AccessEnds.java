package dev.klave.account;

import java.time.Instant;

/**
 * What else ends, in the same transaction, when a person changes their password or loses the
 * identity they signed in with (spec 3 §4 "Agent login": the agent sessions they opened). Disabling
 * an account has its own hooks ({@link DisableHook}).
 */
public interface AccessEnds {
    AccessEnds NONE = new AccessEnds() {
        @Override
        public void passwordChanged(SubjectId person, Instant now) {
        }

        @Override
        public void identityUnlinked(SubjectId person, IdentityProvider provider, Instant now) {
        }
    };

    void passwordChanged(SubjectId person, Instant now);

    void identityUnlinked(SubjectId person, IdentityProvider provider, Instant now);
}
