package dev.klave.login;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Login;
import dev.klave.account.LoginThrottle;
import dev.klave.account.OpenedSession;
import dev.klave.account.Sessions;
import dev.klave.account.SignInMode;
import dev.klave.account.Subject;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.crypto.PasswordHasher;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.storage.Transactions;
import java.net.InetAddress;
import java.util.Optional;

/**
 * {@code POST /api/auth/login} (spec 1 §5 "Password login"). Every failure — unknown login, bot,
 * disabled account, no password yet, wrong password, password sign-in switched off — answers the
 * same 401 after the same Argon2 work, and counts alike towards the lockout of the login typed
 * (5 failures, then 429 for 15 minutes), so neither the status nor its order tells whether a login
 * exists; only the control event says which it was. Each of those is an attempt of the address
 * (10 a minute); a sign-in refused by the lock or by that limit is not.
 */
public final class PasswordLogin {
    private final Transactions transactions;
    private final SubjectStore subjects;
    private final Sessions sessions;
    private final PasswordHasher hasher;
    private final LoginThrottle throttle;
    private final ControlEvents events;
    private final SignInMode mode;
    private final SignInMeters meters;

    public PasswordLogin(Transactions transactions, SubjectStore subjects, Sessions sessions, PasswordHasher hasher,
            LoginThrottle throttle, ControlEvents events, SignInMode mode) {
        this(transactions, subjects, sessions, hasher, throttle, events, mode, SignInMeters.none());
    }

    public PasswordLogin(Transactions transactions, SubjectStore subjects, Sessions sessions, PasswordHasher hasher,
            LoginThrottle throttle, ControlEvents events, SignInMode mode, SignInMeters meters) {
        this.meters = requireNonNull(meters, "meters is null");
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.hasher = requireNonNull(hasher, "hasher is null");
        this.throttle = requireNonNull(throttle, "throttle is null");
        this.events = requireNonNull(events, "events is null");
        this.mode = requireNonNull(mode, "mode is null");
    }

    public OpenedSession signIn(String loginText, String password, InetAddress client) {
        // Spec 1 §5 2 and issue 45: a locked login is refused before anything is tried — no password
        // checked, no Argon2 work, nothing added to the address's count — and told when the lock
        // ends. The lock names the login as typed, existing or not, so this answer tells nothing.
        Optional<Refusal> locked = throttle.lock(loginText);
        if (locked.isPresent()) {
            failure(find(loginText), loginText, PasswordFailure.LOCKED, client);
            throw locked.get();
        }
        try {
            throttle.countAttempt(client);
        } catch (Refusal refusal) {
            failure(Optional.empty(), loginText, PasswordFailure.RATE_LIMITED, client);
            throw refusal;
        }
        Optional<Subject> found = find(loginText);
        String given = password == null ? "" : password;
        if (found.isPresent() && found.get().kind() == SubjectKind.PERSON && found.get().enabled()
                && !mode.passwordAllowed(found.get())) {
            // Spec 1 §5 "Password login" 3: with a provider on, a normal account's password login is
            // `password_disabled` whether or not it ever had a password (most forge or OIDC accounts
            // never do). Counted like any failure, so the answers stay alike; the lockout never stops
            // the provider's own sign-in (spec 1 §5 rule 4).
            hasher.verifyNothing(given);
            throttle.failed(loginText);
            throw failure(found, loginText, PasswordFailure.PASSWORD_DISABLED, client);
        }
        if (found.isEmpty() || found.get().kind() != SubjectKind.PERSON || found.get().passwordHash().isEmpty()) {
            hasher.verifyNothing(given);
            throttle.failed(loginText);
            throw failure(found, loginText,
                    found.isEmpty() ? PasswordFailure.UNKNOWN_LOGIN : PasswordFailure.NO_PASSWORD, client);
        }
        Subject subject = found.get();
        boolean matches = hasher.verify(given, subject.passwordHash().get());
        if (!subject.enabled()) {
            throttle.failed(loginText);
            throw failure(found, loginText, PasswordFailure.DISABLED, client);
        }
        if (!mode.passwordAllowed(subject)) {
            throttle.failed(loginText);
            throw failure(found, loginText, PasswordFailure.PASSWORD_DISABLED, client);
        }
        if (!matches) {
            boolean nowLocked = throttle.failed(loginText);
            throw failure(found, loginText,
                    nowLocked ? PasswordFailure.WRONG_PASSWORD_LOCKED : PasswordFailure.WRONG_PASSWORD, client);
        }
        throttle.succeeded(loginText);
        OpenedSession session = transactions.inTransaction(() -> {
            OpenedSession opened = sessions.open(subject);
            events.event(EventType.LOGIN_SUCCESS).target(subject).via(Via.PASSWORD).from(client).record();
            return opened;
        });
        meters.succeeded(Via.PASSWORD);
        return session;
    }

    private Optional<Subject> find(String loginText) {
        return Login.isValid(loginText) ? subjects.findByLogin(new Login(loginText)) : Optional.empty();
    }

    private Refusal failure(Optional<Subject> subject, String loginText, PasswordFailure reason,
            InetAddress client) {
        meters.failed(Via.PASSWORD);
        ControlEvents.Draft event = events.event(EventType.LOGIN_FAILURE).via(Via.PASSWORD).reason(reason.code())
                .from(client);
        subject.ifPresentOrElse(event::target, () -> event.details(java.util.Map.of("login", abbreviate(loginText))));
        event.record();
        return Message.LOGIN_FAILED.refusal();
    }

    /** What was typed as a login is kept for the event, bounded; it is never a secret. */
    private static String abbreviate(String loginText) {
        if (loginText == null) {
            return "";
        }
        return loginText.length() <= 64 ? loginText : loginText.substring(0, 64);
    }
}
