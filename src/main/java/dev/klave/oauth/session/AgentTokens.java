package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Permission;
import dev.klave.account.SubjectId;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.crypto.TokenKind;
import dev.klave.messages.Text;
import dev.klave.storage.Transactions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The lifecycle of an agent session's secrets (spec 3 §2, §4 "Agent login"; OAuth 2.1): a consent
 * opens a session and issues its single-use code; the code, its PKCE verifier and redirect_uri
 * buy an access and a refresh token; a refresh token rotates on every use. A code or refresh
 * token presented a second time ends the session (it was stolen, or replayed), and so does
 * revoking any of its tokens (RFC 7009).
 */
public final class AgentTokens {
    public static final Duration CODE_LIFETIME = Duration.ofMinutes(10);
    public static final Duration ACCESS_LIFETIME = Duration.ofHours(1);
    /** Spec 3 leaves the session's lifetime open: a month, renewed by nothing. */
    public static final Duration SESSION_LIFETIME = Duration.ofDays(30);
    /** RFC 7636 §4.1: 43 to 128 unreserved characters. */
    private static final Pattern VERIFIER = Pattern.compile("[A-Za-z0-9._~-]{43,128}");

    private final Transactions transactions;
    private final AgentSessionStore sessions;
    private final AgentTokenStore tokens;
    private final SecretTokenGenerator generator;
    private final Clock clock;

    public AgentTokens(Transactions transactions, AgentSessionStore sessions, AgentTokenStore tokens,
            SecretTokenGenerator generator, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.generator = requireNonNull(generator, "generator is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** A consented session and the code that ends the authorization request (shown once). */
    public record Consented(AgentSession session, String code) {
        @Override
        public String toString() {
            return "Consented[" + session.id() + "]";
        }
    }

    /** The person approved on the consent page: a session opens, and a code for its client. */
    /** As the consent page's, without anything else in the session's transaction (tests, tools). */
    public Consented consent(SubjectId person, String clientId, List<Permission> permissions,
            boolean writesNeedApproval, String via, String redirectUri, String codeChallenge) {
        return consent(person, clientId, permissions, writesNeedApproval, via, redirectUri, codeChallenge,
                session -> { });
    }

    /** @param opened runs inside the session's transaction (its control event: one commit for both) */
    public Consented consent(SubjectId person, String clientId, List<Permission> permissions,
            boolean writesNeedApproval, String via, String redirectUri, String codeChallenge,
            java.util.function.Consumer<AgentSession> opened) {
        Instant now = clock.instant();
        AgentSession session = new AgentSession("s_" + generator.randomId().substring(0, 32), person, clientId,
                permissions, writesNeedApproval, via, now, now.plus(SESSION_LIFETIME), Optional.empty(),
                Optional.empty(), Optional.empty());
        String code = generator.randomId();
        transactions.inTransaction(() -> {
            sessions.create(session);
            tokens.create(new AgentToken(SecretToken.sha256(code), AgentToken.Kind.CODE, session.id(), now,
                    now.plus(CODE_LIFETIME), Optional.empty(), Optional.of(redirectUri), Optional.of(codeChallenge)));
            opened.accept(session);
            return null;
        });
        return new Consented(session, code);
    }

    /**
     * {@code grant_type=authorization_code} (OAuth 2.1 §4.1.3). The code is spent only by a request
     * that passes every check — its client, redirect_uri and PKCE verifier: whoever saw a code (a
     * log, a referrer) but lacks the verifier can neither use it nor end the person's session. A
     * code really redeemed that comes back ends its session (RFC 9700 §4.5: it was intercepted).
     */
    public IssuedTokens exchange(String code, String verifier, String redirectUri, String clientId)
            throws OAuthRefusal {
        Instant now = clock.instant();
        AgentToken stored = tokens.findByHash(SecretToken.sha256(code)).filter(token -> token.kind()
                == AgentToken.Kind.CODE).orElseThrow(() -> grant(Text.OAUTH_CODE_UNKNOWN));
        AgentSession session = sessions.findById(stored.sessionId()).orElseThrow(() -> grant(Text.OAUTH_CODE_UNKNOWN));
        if (stored.usedAt().isPresent()) {
            throw replayed(session, now, Text.AGENT_SESSION_CODE_REPLAYED, Text.OAUTH_CODE_USED);
        }
        if (stored.expiredAt(now) || !session.openAt(now)) {
            throw grant(Text.OAUTH_CODE_EXPIRED);
        }
        if (!session.clientId().equals(clientId)) {
            throw grant(Text.OAUTH_CODE_OTHER_CLIENT);
        }
        if (!stored.redirectUri().orElseThrow().equals(redirectUri)) {
            throw grant(Text.OAUTH_REDIRECT_NOT_AUTHORIZED);
        }
        if (verifier == null || !VERIFIER.matcher(verifier).matches()
                || !MessageDigest.isEqual(s256(verifier).getBytes(StandardCharsets.US_ASCII),
                        stored.codeChallenge().orElseThrow().getBytes(StandardCharsets.US_ASCII))) {
            throw grant(Text.OAUTH_PKCE_MISMATCH);
        }
        if (!tokens.use(stored.hash(), now)) {
            // Redeemed meanwhile by another request that passed the same checks: a replay.
            throw replayed(session, now, Text.AGENT_SESSION_CODE_REPLAYED, Text.OAUTH_CODE_USED);
        }
        return issue(session, now);
    }

    /**
     * {@code grant_type=refresh_token}: the token rotates. It is spent only by its own client on an
     * open session; one really used that comes back ends the session (OAuth 2.1 §4.3.1).
     */
    public IssuedTokens refresh(String refreshToken, String clientId) throws OAuthRefusal {
        Instant now = clock.instant();
        AgentToken stored = tokens.findByHash(SecretToken.sha256(refreshToken))
                .filter(token -> token.kind() == AgentToken.Kind.REFRESH)
                .orElseThrow(() -> grant(Text.OAUTH_REFRESH_UNKNOWN));
        AgentSession session = sessions.findById(stored.sessionId())
                .orElseThrow(() -> grant(Text.OAUTH_REFRESH_UNKNOWN));
        if (stored.usedAt().isPresent()) {
            throw replayed(session, now, Text.AGENT_SESSION_REFRESH_REPLAYED, Text.OAUTH_REFRESH_USED);
        }
        if (!session.openAt(now)) {
            throw grant(Text.OAUTH_SESSION_ENDED);
        }
        if (!session.clientId().equals(clientId)) {
            throw grant(Text.OAUTH_REFRESH_OTHER_CLIENT);
        }
        if (!tokens.use(stored.hash(), now)) {
            throw replayed(session, now, Text.AGENT_SESSION_REFRESH_REPLAYED, Text.OAUTH_REFRESH_USED);
        }
        return issue(session, now);
    }

    private OAuthRefusal replayed(AgentSession session, Instant now, Text reason, Text description) {
        sessions.end(session.id(), now, reason.text());
        return grant(description);
    }

    /** RFC 7009: revoking any token of a session ends the session; an unknown token changes nothing. */
    public void revoke(String token) {
        Instant now = clock.instant();
        tokens.findByHash(SecretToken.sha256(token))
                .ifPresent(found -> sessions.end(found.sessionId(), now, Text.AGENT_SESSION_REVOKED_BY_CLIENT.text()));
    }

    /** The open session an access token admits to {@code /mcp} now, if any. */
    public Optional<AgentSession> sessionOf(String accessToken) {
        Instant now = clock.instant();
        return tokens.findByHash(SecretToken.sha256(accessToken))
                .filter(token -> token.kind() == AgentToken.Kind.ACCESS && !token.expiredAt(now))
                .flatMap(token -> sessions.findById(token.sessionId()))
                .filter(session -> session.openAt(now));
    }

    private IssuedTokens issue(AgentSession session, Instant now) {
        SecretToken access = generator.generate(TokenKind.CREDENTIAL);
        SecretToken refresh = generator.generate(TokenKind.REFRESH);
        // Spec 3 §2: an access token never outlives its session.
        Instant accessExpires = now.plus(ACCESS_LIFETIME).isBefore(session.expiresAt()) ? now.plus(ACCESS_LIFETIME)
                : session.expiresAt();
        transactions.inTransaction(() -> {
            tokens.create(new AgentToken(access.hash(), AgentToken.Kind.ACCESS, session.id(), now, accessExpires,
                    Optional.empty(), Optional.empty(), Optional.empty()));
            tokens.create(new AgentToken(refresh.hash(), AgentToken.Kind.REFRESH, session.id(), now,
                    session.expiresAt(), Optional.empty(), Optional.empty(), Optional.empty()));
            return null;
        });
        return new IssuedTokens(session.id(), access.reveal(), refresh.reveal(), accessExpires);
    }

    private static OAuthRefusal grant(Text description) {
        return new OAuthRefusal(OAuthRefusal.Error.INVALID_GRANT, description.text());
    }

    /** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))), unpadded. */
    static String s256(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
