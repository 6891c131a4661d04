package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

import dev.klave.credential.CredentialStore;
import dev.klave.crypto.TokenHash;
import dev.klave.gateway.Bearer;
import dev.klave.gateway.Bearers;
import java.time.Instant;
import java.util.Optional;

/**
 * The bearers {@code /mcp} accepts (spec 3 §5 1): a bot's credential, found in the credentials
 * table as at the proxy, or a delegated agent's access token, found in the agent tokens' own table
 * — which the proxy's {@link Bearers} never reads, so the token is unknown there (spec 3 §5 3).
 * A session is a bearer of its own kind ({@link Bearer.OfSession}): its id is the audit row's
 * credential and the stream guard's key, its person the owner, its end the revocation, and its
 * expiry the access token's (at most the session's). Checked again by id, for a call in flight, it
 * lasts as long as the session: a token that expires or rotates does not cut a call.
 * The session's bearer carries the permissions chosen on the consent page: what it reaches with
 * them is the {@link dev.klave.access.Authority}'s to say.
 */
public final class SessionBearers implements Bearers {
    private final CredentialStore credentials;
    private final AgentTokenStore tokens;
    private final AgentSessionStore sessions;

    public SessionBearers(CredentialStore credentials, AgentTokenStore tokens, AgentSessionStore sessions) {
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
    }

    /** The bearer a token names at {@code /mcp}: a credential, or an agent's access token standing for its session. */
    @Override
    public Optional<Bearer> find(TokenHash token) {
        Optional<Bearer> credential = credentials.findByTokenHash(token.hex()).map(Bearer.OfCredential::new);
        if (credential.isPresent()) {
            return credential;
        }
        return tokens.findByHash(token.hex())
                .filter(found -> found.kind() == AgentToken.Kind.ACCESS)
                .flatMap(access -> sessions.findById(access.sessionId()).map(session -> bearer(session,
                        access.expiresAt().isBefore(session.expiresAt()) ? access.expiresAt() : session.expiresAt())));
    }

    @Override
    public Optional<Bearer> findById(String id) {
        Optional<Bearer> credential = credentials.findById(id).map(Bearer.OfCredential::new);
        if (credential.isPresent()) {
            return credential;
        }
        return sessions.findById(id).map(session -> bearer(session, session.expiresAt()));
    }

    /** A session as a bearer, admitting calls until {@code expiresAt} and not after it ended. */
    private static Bearer.OfSession bearer(AgentSession session, Instant expiresAt) {
        return new Bearer.OfSession(session.id(), session.person(), expiresAt, session.endedAt(),
                new Bearer.OfSession.Session(session.permissions(), session.writesNeedApproval(),
                        session.expiresAt(), session.lastUsedAt()));
    }
}
