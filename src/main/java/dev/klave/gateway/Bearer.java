package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Authority;
import dev.klave.access.Permission;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.credential.Credential;
import dev.klave.messages.Message;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Who a call to a cluster is made by, resolved once, at the edge, from the token it presented
 * (spec 1 §5 "Credentials at the proxy", spec 3 §5): a stored credential — a person's or a bot's —
 * or a delegated agent's session, whose access token is valid only at {@code /mcp}. What it may
 * reach is the {@link dev.klave.access.Authority}'s to say, of what it acts as ({@link #acting()});
 * the gateway checks at every call, and the stream guard at every change, that it still admits
 * anything ({@link #refusedAt}).
 */
public sealed interface Bearer permits Bearer.OfCredential, Bearer.OfSession {
    /** The id the audit names as the call's credential, and by which the stream guard checks it again. */
    String id();

    /** The subject whose grants it acts with: the credential's owner, or the session's person. */
    SubjectId owner();

    /** Until when it admits calls: a credential's expiry; a session's access token's, never past the session. */
    Instant expiresAt();

    /** The one cluster a credential is restricted to, when it is. */
    Optional<ClusterId> restrictedTo();

    /** Why it admits nothing at {@code now}, if so: revoked or ended, or expired (spec 1 §7). */
    Optional<Message> refusedAt(Instant now);

    /** What it acts as, for the access authority: a credential of its owner's, or a session with its permissions. */
    Authority.Acting acting();

    /** A credential of the credentials table (spec 1 §2 "Credential"). */
    record OfCredential(Credential credential) implements Bearer {
        public OfCredential {
            requireNonNull(credential, "credential is null");
        }

        @Override
        public String id() {
            return credential.id();
        }

        @Override
        public SubjectId owner() {
            return credential.subjectId();
        }

        @Override
        public Instant expiresAt() {
            return credential.expiresAt();
        }

        @Override
        public Optional<ClusterId> restrictedTo() {
            return credential.clusterId();
        }

        @Override
        public Authority.Acting acting() {
            return new Authority.Acting.WithCredential(credential.subjectId(), credential.clusterId());
        }

        @Override
        public Optional<Message> refusedAt(Instant now) {
            if (credential.revoked()) {
                return Optional.of(Message.CREDENTIAL_REVOKED);
            }
            return credential.expiredAt(now) ? Optional.of(Message.CREDENTIAL_EXPIRED) : Optional.empty();
        }
    }

    /**
     * A delegated agent's session (spec 3 §2 "Agent session"), as its access token presents it:
     * its id stands as the call's credential in the audit; it ends with the session.
     *
     * @param expiresAt the access token's expiry, at most the session's; the session's own, when
     *     the session is checked again by its id (a call in flight outlives its token's rotation)
     * @param session what the session itself says: its permissions, whether its writes wait, its end
     */
    record OfSession(String sessionId, SubjectId person, Instant expiresAt, Optional<Instant> endedAt,
            Session session) implements Bearer {
        public OfSession {
            requireNonNull(sessionId, "sessionId is null");
            requireNonNull(person, "person is null");
            requireNonNull(expiresAt, "expiresAt is null");
            requireNonNull(endedAt, "endedAt is null");
            requireNonNull(session, "session is null");
        }

        /**
         * The session behind the token, as read with it: the permissions its person chose on the
         * consent page, whether its writes wait for the person, until when it lasts (spec 3 §2: 30
         * days) and when it was last used.
         */
        public record Session(List<Permission> chosen, boolean writesNeedApproval, Instant endsAt,
                Optional<Instant> lastUsedAt) {
            public Session {
                chosen = List.copyOf(chosen);
                requireNonNull(endsAt, "endsAt is null");
                requireNonNull(lastUsedAt, "lastUsedAt is null");
            }
        }

        @Override
        public Authority.Acting acting() {
            return new Authority.Acting.InSession(sessionId, person, session.chosen());
        }

        @Override
        public String id() {
            return sessionId;
        }

        @Override
        public SubjectId owner() {
            return person;
        }

        @Override
        public Optional<ClusterId> restrictedTo() {
            return Optional.empty();
        }

        /** Open at {@code now}: not ended, the session not past its end. */
        public boolean openAt(Instant now) {
            return endedAt.isEmpty() && now.isBefore(session.endsAt());
        }

        @Override
        public Optional<Message> refusedAt(Instant now) {
            if (endedAt.isPresent()) {
                return Optional.of(Message.CREDENTIAL_REVOKED);
            }
            return now.isBefore(expiresAt) ? Optional.empty() : Optional.of(Message.CREDENTIAL_EXPIRED);
        }
    }
}
