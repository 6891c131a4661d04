package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grant;
import dev.klave.access.LentAccess;
import dev.klave.credential.CredentialStore;
import dev.klave.crypto.TokenHash;
import dev.klave.gateway.Bearer;
import dev.klave.gateway.Bearers;
import dev.klave.gateway.Reach;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The bearers {@code /mcp} accepts (spec 3 §5 1): a bot's credential, found in the credentials
 * table as at the proxy, or a delegated agent's access token, found in the agent tokens' own table
 * — which the proxy's {@link Bearers} never reads, so the token is unknown there (spec 3 §5 3).
 * A session is a bearer of its own kind ({@link Bearer.OfSession}): its id is the audit row's
 * credential and the stream guard's key, its person the owner, its end the revocation, and its
 * expiry the access token's (at most the session's). Checked again by id, for a call in flight, it
 * lasts as long as the session: a token that expires or rotates does not cut a call.
 *
 * <p>And what a session reaches ({@link Reach.SessionReach}): of its person's grants in force,
 * those carrying a permission chosen on the consent page, and each role approved since, lent by
 * the grant that covers it (spec 3 §4-5).
 */
public final class SessionBearers implements Bearers, Reach.SessionReach {
    private final CredentialStore credentials;
    private final AgentTokenStore tokens;
    private final AgentSessionStore sessions;
    private final LentAccess lent;

    /** A session found by its access token, with the bearer it stands as. */
    public record Found(Bearer bearer, Optional<AgentSession> session) {
        public Found {
            requireNonNull(bearer, "bearer is null");
            requireNonNull(session, "session is null");
        }
    }

    /** @param lent the roles approved access requests lent to sessions (spec 3 "request_access") */
    public SessionBearers(CredentialStore credentials, AgentTokenStore tokens, AgentSessionStore sessions,
            LentAccess lent) {
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.lent = requireNonNull(lent, "lent is null");
    }

    @Override
    public Optional<Bearer> find(TokenHash token) {
        return resolve(token).map(Found::bearer);
    }

    /** The bearer a token names at {@code /mcp}, with its session when it is an agent's access token. */
    public Optional<Found> resolve(TokenHash token) {
        Optional<Found> credential = credentials.findByTokenHash(token.hex())
                .map(found -> new Found(new Bearer.OfCredential(found), Optional.empty()));
        if (credential.isPresent()) {
            return credential;
        }
        return tokens.findByHash(token.hex())
                .filter(found -> found.kind() == AgentToken.Kind.ACCESS)
                .flatMap(access -> sessions.findById(access.sessionId()).map(session -> new Found(bearer(session,
                        access.expiresAt().isBefore(session.expiresAt()) ? access.expiresAt() : session.expiresAt()),
                        Optional.of(session))));
    }

    @Override
    public Optional<Bearer> findById(String id) {
        Optional<Bearer> credential = credentials.findById(id).map(Bearer.OfCredential::new);
        if (credential.isPresent()) {
            return credential;
        }
        return sessions.findById(id).map(session -> bearer(session, session.expiresAt()));
    }

    /**
     * Of the person's grants {@code active} now, those the session may use: carrying a permission
     * chosen on the consent page; and each permission approved since (an access request of the
     * session's), lent by the active grant that covers it — its role and scope, never beyond that
     * grant's end nor the minutes approved. A permission no active grant covers any more reaches
     * nothing: the check runs at every call, not only at approval. A session gone reaches nothing.
     */
    @Override
    public List<Grant> narrow(Bearer.OfSession session, List<Grant> active, Instant now) {
        Optional<AgentSession> found = sessions.findById(session.sessionId());
        if (found.isEmpty()) {
            return List.of();
        }
        List<Permission> chosen = found.get().permissions();
        List<Grant> reach = new ArrayList<>();
        for (Grant grant : active) {
            if (chosen.stream().anyMatch(permission -> permission.carriedBy(grant))) {
                reach.add(grant);
            }
        }
        for (LentAccess.Lent approved : lent.lentTo(session.sessionId(), now)) {
            if (approved.subject().equals(session.person()) && approved.role().delegable()) {
                approved.through(active).ifPresent(reach::add);
            }
        }
        return reach;
    }

    /** A session as a bearer, admitting calls until {@code expiresAt} and not after it ended. */
    private static Bearer.OfSession bearer(AgentSession session, Instant expiresAt) {
        return new Bearer.OfSession(session.id(), session.person(), expiresAt, session.endedAt());
    }
}
