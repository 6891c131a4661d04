package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

import dev.klave.account.AccessEnds;
import dev.klave.account.DisableHook;
import dev.klave.account.IdentityProvider;
import dev.klave.account.SubjectId;
import dev.klave.messages.Text;
import java.time.Instant;

/**
 * Which account events end a person's agent sessions (spec 3 §4 "Agent login", issue 31 item 5):
 * the account disabled, its password changed (every session: any of them may have been opened by
 * whoever knew the old one), and the unlink of the identity a session was consented with (those
 * sessions only). Each runs in the transaction of the event.
 */
public final class AgentSessionEnds implements DisableHook, AccessEnds {
    private final AgentSessionStore sessions;

    public AgentSessionEnds(AgentSessionStore sessions) {
        this.sessions = requireNonNull(sessions, "sessions is null");
    }

    @Override
    public void onDisable(SubjectId subjectId, Instant now) {
        sessions.endAllOf(subjectId, now, Text.REVOKED_ACCOUNT_DISABLED.text());
    }

    @Override
    public void passwordChanged(SubjectId person, Instant now) {
        sessions.endAllOf(person, now, Text.AGENT_SESSION_PASSWORD_CHANGED.text());
    }

    @Override
    public void identityUnlinked(SubjectId person, IdentityProvider provider, Instant now) {
        sessions.endAllConsentedVia(person, provider.code(), now, Text.AGENT_SESSION_IDENTITY_UNLINKED.text());
    }
}
