package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.crypto.PasswordHasher;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.TokenKind;
import dev.klave.messages.Message;
import dev.klave.storage.Transactions;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Using invitation and reset links (spec 1 §2 "Link token", §4 {@code /api/auth/link*}). A link
 * is looked up without being spent; completing it spends it, sets the password, closes every
 * other session of the person and opens a new one, all at once.
 */
public final class Links {
    private final Transactions transactions;
    private final LinkTokenStore links;
    private final SubjectStore subjects;
    private final Sessions sessions;
    private final PasswordHasher hasher;
    private final ControlEvents events;
    private final SignInMode mode;
    private final AccessEnds ends;
    private final Clock clock;

    /** @param ends what else ends when the link sets a new password (the person's agent sessions) */
    public Links(Transactions transactions, LinkTokenStore links, SubjectStore subjects, Sessions sessions,
            PasswordHasher hasher, ControlEvents events, SignInMode mode, AccessEnds ends, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.links = requireNonNull(links, "links is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.hasher = requireNonNull(hasher, "hasher is null");
        this.events = requireNonNull(events, "events is null");
        this.mode = requireNonNull(mode, "mode is null");
        this.ends = requireNonNull(ends, "ends is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * @throws dev.klave.messages.Refusal 404 {@code enlace no válido} for a token that never
     *     existed; 410 when it was spent, revoked or has expired
     */
    public LinkView lookup(String tokenText) {
        Usable usable = usable(tokenText, clock.instant());
        return new LinkView(usable.subject.login().value(), usable.subject.displayName(), usable.link.purpose().code(),
                usable.link.expiresAt(), forgeRequired(usable.subject));
    }

    /**
     * Sets the password the link was sent for and signs the person in. The new password may be
     * the one it replaces: whoever holds the link does not know that one (it was forgotten, or an
     * administrator reset it), and refusing it would tell them what it was.
     */
    public OpenedSession complete(String tokenText, String password, InetAddress client) {
        Usable usable = usable(tokenText, clock.instant());
        if (forgeRequired(usable.subject)) {
            throw mode.passwordNotUsed();
        }
        PasswordPolicy.check(password, usable.subject.login());
        String hash = hasher.hash(password);
        return transactions.inTransaction(() -> {
            Instant now = clock.instant();
            if (!links.consume(usable.link.id(), now)) {
                // Used by a concurrent request, or revoked, since the lookup above.
                throw Message.LINK_GONE.refusal();
            }
            Subject subject = subjects.update(usable.subject.id(), current -> current.withPasswordHash(Optional.of(hash)));
            sessions.closeAll(subject.id());
            // A new password, as on the account page: whatever the old one let someone open ends too.
            ends.passwordChanged(subject.id(), now);
            OpenedSession opened = sessions.open(subject);
            events.event(EventType.LINK_COMPLETE).target(subject).via(Via.PASSWORD).reason(usable.link.purpose().code())
                    .from(client).record();
            return opened;
        });
    }

    /** With forge or OIDC sign-in on, a link links an account instead of setting a password. */
    private boolean forgeRequired(Subject subject) {
        return !mode.passwordAllowed(subject);
    }

    private Usable usable(String tokenText, Instant now) {
        SecretToken token = SecretToken.parse(TokenKind.LINK, tokenText).orElseThrow(Message.LINK_INVALID::refusal);
        LinkToken link = links.findByHash(token.hash()).orElseThrow(Message.LINK_INVALID::refusal);
        if (!link.usableAt(now)) {
            throw Message.LINK_GONE.refusal();
        }
        Subject subject = subjects.findById(link.subjectId())
                .filter(Subject::enabled)
                .orElseThrow(Message.LINK_GONE::refusal);
        return new Usable(link, subject);
    }

    private record Usable(LinkToken link, Subject subject) {}
}
