package dev.klave.account;

import static java.util.Objects.requireNonNull;

import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.crypto.PasswordHasher;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.storage.Transactions;
import java.net.InetAddress;
import java.time.Clock;
import java.util.Optional;

/** A person's own account: what {@code GET /api/me} shows, and changing one's password. */
public final class OwnAccount {
    private final Transactions transactions;
    private final SubjectStore subjects;
    private final Sessions sessions;
    private final PasswordHasher hasher;
    private final LoginThrottle throttle;
    private final ControlEvents events;
    private final SignInMode mode;

    private final AccessEnds ends;
    private final Clock clock;

    public OwnAccount(Transactions transactions, SubjectStore subjects, Sessions sessions, PasswordHasher hasher,
            LoginThrottle throttle, ControlEvents events, SignInMode mode, AccessEnds ends, Clock clock) {
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.ends = requireNonNull(ends, "ends is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.hasher = requireNonNull(hasher, "hasher is null");
        this.throttle = requireNonNull(throttle, "throttle is null");
        this.events = requireNonNull(events, "events is null");
        this.mode = requireNonNull(mode, "mode is null");
    }

    public Subject me(Principal caller) {
        return subjects.findById(caller.subjectId()).orElseThrow(Message.SESSION_INVALID::refusal);
    }

    /** Whether the person may sign in with a password under the current mode. */
    public boolean canUsePassword(Subject subject) {
        return subject.passwordHash().isPresent() && mode.passwordAllowed(subject);
    }

    /**
     * Replaces the password after checking the current one; the new one must differ from it and
     * pass {@link PasswordPolicy}. Every other session of the person is closed, the one making the
     * request stays open (spec 1 §3 "Web session").
     */
    public void changePassword(Principal caller, String currentPassword, String newPassword, InetAddress client) {
        Subject subject = me(caller);
        if (!mode.passwordAllowed(subject)) {
            throw mode.passwordNotUsed();
        }
        Optional<Refusal> locked = throttle.lock(subject.login().value());
        if (locked.isPresent()) {
            throw locked.get();
        }
        boolean matches = subject.passwordHash()
                .map(stored -> hasher.verify(currentPassword == null ? "" : currentPassword, stored))
                .orElseGet(() -> hasher.verifyNothing(""));
        if (!matches) {
            // Guessing the current password from a stolen session counts like guessing at sign-in.
            throttle.failed(subject.login().value());
            throw Message.CURRENT_PASSWORD_WRONG.refusal();
        }
        // The current password was just verified against the stored hash, so comparing the new
        // one with it tells whether the new one would leave the hash as it is, with no second
        // Argon2id run. A reset link has no such check: see Links#complete.
        if (newPassword != null && newPassword.equals(currentPassword)) {
            throw Message.PASSWORD_UNCHANGED.refusal();
        }
        PasswordPolicy.check(newPassword, subject.login());
        String hash = hasher.hash(newPassword);
        transactions.inTransaction(() -> {
            subjects.update(subject.id(), current -> current.withPasswordHash(Optional.of(hash)));
            sessions.closeOthers(caller);
            // Spec 3 §4 "Agent login": a new password ends the agent sessions the old one opened.
            ends.passwordChanged(subject.id(), clock.instant());
            events.event(EventType.USER_PASSWORD_CHANGE).actor(caller).target(subject).from(client).record();
            return null;
        });
        throttle.succeeded(subject.login().value());
    }
}
