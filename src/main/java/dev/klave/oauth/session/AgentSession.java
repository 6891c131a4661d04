package dev.klave.oauth.session;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Permission;
import dev.klave.account.SubjectId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A delegated agent's login session (spec 3 §2 "Agent session"): opened by a person on the
 * consent page for one OAuth client, with the permissions they chose among their own and whether
 * the agent's writes wait for them. Its refresh tokens last as long as it does; it ends on
 * revocation, a reused code or refresh token, or what ends the person's access.
 *
 * @param consentVia how the person signed in to consent ({@code password}, {@code forge},
 *     {@code oidc}): unlinking that identity ends the session
 */
public record AgentSession(String id, SubjectId person, String clientId, List<Permission> permissions,
        boolean writesNeedApproval, String consentVia, Instant createdAt, Instant expiresAt,
        Optional<Instant> endedAt, Optional<String> endReason, Optional<Instant> lastUsedAt) {
    /** The audit row's {@code session} (audit.Channel): printable ASCII, at most 64 characters. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{8,64}");

    public AgentSession {
        requireNonNull(id, "id is null");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a session id is 8 to 64 URL-safe characters");
        }
        requireNonNull(person, "person is null");
        requireNonNull(clientId, "clientId is null");
        permissions = List.copyOf(permissions);
        requireNonNull(consentVia, "consentVia is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(expiresAt, "expiresAt is null");
        requireNonNull(endedAt, "endedAt is null");
        requireNonNull(endReason, "endReason is null");
        requireNonNull(lastUsedAt, "lastUsedAt is null");
        if (!expiresAt.isAfter(createdAt)) {
            throw new IllegalArgumentException("a session ends after it starts");
        }
    }

    /** Open at {@code now}: not ended, not expired. */
    public boolean openAt(Instant now) {
        return endedAt.isEmpty() && now.isBefore(expiresAt);
    }
}
