package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.crypto.Hmac;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.http.Caller;
import dev.klave.messages.Message;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Web sessions (spec 1 §5 "Sessions"). The cookie holds a random id and its HMAC; the database
 * holds the id's hash. Every request reloads the session and its account, so closing sessions or
 * disabling the account takes effect on the very next request, on every replica.
 */
public final class Sessions {
    /** Spec 1 §8: a web session lasts 12 hours. */
    public static final Duration LIFETIME = Duration.ofHours(12);

    private final SessionStore sessions;
    private final SubjectStore subjects;
    private final Hmac signer;
    private final SecretTokenGenerator random;
    private final Clock clock;

    public Sessions(SessionStore sessions, SubjectStore subjects, Hmac signer, SecretTokenGenerator random,
            Clock clock) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.signer = requireNonNull(signer, "signer is null");
        this.random = requireNonNull(random, "random is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** A new session: a new id at every sign-in, never one the client chose. */
    public OpenedSession open(Subject subject) {
        if (subject.kind() != SubjectKind.PERSON) {
            throw new IllegalArgumentException("bots have no sessions");
        }
        String id = random.randomId();
        Instant now = clock.instant();
        sessions.create(new WebSession(SecretToken.sha256(id), subject.id(), now, now.plus(LIFETIME),
                Optional.empty()));
        return new OpenedSession(subject, id + "." + signer.sign(id), LIFETIME, now.plus(LIFETIME));
    }

    /**
     * The caller named by the cookie.
     *
     * @throws dev.klave.messages.Refusal {@code SESSION_MISSING} without the cookie,
     *     {@code SESSION_INVALID} when it is forged, expired, closed or its account disabled
     */
    public Caller.Session authenticate(List<String> cookieHeaders) {
        String value = SessionCookie.read(cookieHeaders).orElseThrow(Message.SESSION_MISSING::refusal);
        int dot = value.indexOf('.');
        if (dot <= 0 || !signer.verify(value.substring(0, dot), value.substring(dot + 1))) {
            throw Message.SESSION_INVALID.refusal();
        }
        String idHash = SecretToken.sha256(value.substring(0, dot));
        Instant now = clock.instant();
        WebSession session = sessions.findByHash(idHash)
                .filter(found -> found.openAt(now))
                .orElseThrow(Message.SESSION_INVALID::refusal);
        Subject subject = subjects.findById(session.subjectId())
                .filter(Subject::enabled)
                .orElseThrow(Message.SESSION_INVALID::refusal);
        return new Caller.Session(subject.id().value(), subject.login().value(), subject.admin(), idHash);
    }

    /** When the session with this id hash ends, while it is open. */
    public Optional<Instant> expiresAt(String idHash) {
        return sessions.findByHash(idHash).filter(session -> session.openAt(clock.instant())).map(WebSession::expiresAt);
    }

    /** Closes every session of the subject at once; returns how many were open. */
    public int closeAll(SubjectId subjectId) {
        return sessions.closeAll(subjectId, clock.instant());
    }

    /** Closes every session of the caller's but the one making the request. */
    public int closeOthers(Principal caller) {
        return sessions.closeAllExcept(caller.subjectId(), caller.sessionIdHash(), clock.instant());
    }
}
