package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Grant;
import dev.klave.access.LentAccess;
import dev.klave.credential.Credential;
import dev.klave.credential.CredentialStore;
import dev.klave.crypto.TokenHash;
import dev.klave.gateway.Bearers;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bearers {@code /mcp} accepts (spec 3 §5 1): a bot's credential, found in the credentials
 * table as at the proxy, or a delegated agent's access token, found in the agent tokens' own table
 * — which the proxy's {@link Bearers} never reads, so the token is unknown there (spec 3 §5 3).
 *
 * <p>The gateway checks credentials; a session takes part as one: its id is the credential's (the
 * audit row's credential, the stream guard's key), its person the owner, its end the revocation,
 * and its expiry the access token's (at most the session's). Checked again by id, for a call in
 * flight, it lasts as long as the session: a token that expires or rotates does not cut a call.
 */
public final class SessionBearers implements Bearers {
    private final CredentialStore credentials;
    private final AgentTokenStore tokens;
    private final AgentSessionStore sessions;
    private final GrantedLater granted;
    private final Clock clock;

    /**
     * What a person granted their agent after the consent: approved access requests still in
     * force, each with the end of the minutes it was approved for.
     */
    @FunctionalInterface
    public interface GrantedLater {
        Map<Permission, Instant> inForce(AgentSession session, Instant now);
    }

    public SessionBearers(CredentialStore credentials, AgentTokenStore tokens, AgentSessionStore sessions,
            GrantedLater granted, Clock clock) {
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.granted = requireNonNull(granted, "granted is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public Optional<Credential> find(TokenHash token) {
        Optional<Credential> credential = credentials.findByTokenHash(token.hex());
        if (credential.isPresent()) {
            return credential;
        }
        return tokens.findByHash(token.hex())
                .filter(found -> found.kind() == AgentToken.Kind.ACCESS)
                .flatMap(access -> sessions.findById(access.sessionId()).map(session -> asCredential(session,
                        access.expiresAt().isBefore(session.expiresAt()) ? access.expiresAt() : session.expiresAt())));
    }

    @Override
    public Optional<Credential> findById(String credentialId) {
        Optional<Credential> credential = credentials.findById(credentialId);
        if (credential.isPresent()) {
            return credential;
        }
        return sessions.findById(credentialId).map(session -> asCredential(session, session.expiresAt()));
    }

    /** The session a credential of this way in stands for; empty for a bot's credential. */
    public Optional<AgentSession> session(Credential credential) {
        // A stored credential always has its token's hash; only a session's stand-in has none.
        if (!credential.tokenHash().isEmpty()) {
            return Optional.empty();
        }
        return sessions.findById(credential.id()).filter(found -> found.person().equals(credential.subjectId()));
    }

    @Override
    public List<Grant> reach(Credential credential, List<Grant> active) {
        Optional<AgentSession> session = session(credential);
        return session.isEmpty() ? active : reach(session.get(), active);
    }

    /**
     * Of the person's grants {@code active} now, those the session may use: carrying a permission
     * chosen on the consent page; and each permission approved since (an access request of the
     * session's), lent by the active grant that covers it — its role and scope, never beyond that
     * grant's end nor the minutes approved. A permission no active grant covers any more reaches
     * nothing: the check runs at every call, not only at approval.
     */
    public List<Grant> reach(AgentSession session, List<Grant> active) {
        List<Permission> chosen = session.permissions();
        Map<Permission, Instant> later = granted.inForce(session, clock.instant());
        List<Grant> reach = new ArrayList<>();
        for (Grant grant : active) {
            if (chosen.stream().anyMatch(permission -> permission.carriedBy(grant))) {
                reach.add(grant);
            }
        }
        for (Map.Entry<Permission, Instant> approved : later.entrySet()) {
            Permission permission = approved.getKey();
            new LentAccess.Lent(session.person(), permission.cluster(), permission.role(), permission.scope(),
                    approved.getValue()).through(active).ifPresent(reach::add);
        }
        return reach;
    }

    /** A session's stand-in among credentials (never stored): no token hash, no cluster restriction. */
    private static Credential asCredential(AgentSession session, Instant expiresAt) {
        return new Credential(session.id(), "", session.person(), Optional.empty(), session.clientId(), "",
                session.createdAt(), expiresAt, Optional.empty(), session.endedAt(), Optional.empty(),
                session.endReason());
    }
}
