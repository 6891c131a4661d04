package dev.klave;

import static java.util.Objects.requireNonNull;
import dev.klave.account.Accounts;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.LastAdminRule;
import dev.klave.account.LinkTokenStore;
import dev.klave.account.LoginThrottle;
import dev.klave.account.SessionStore;
import dev.klave.account.Sessions;
import dev.klave.account.SignInMode;
import dev.klave.account.SubjectStore;
import dev.klave.audit.ControlEvents;
import dev.klave.config.MasterKey;
import dev.klave.config.Settings;
import dev.klave.crypto.Hmac;
import dev.klave.crypto.KeyPurpose;
import dev.klave.crypto.KeyRing;
import dev.klave.crypto.PasswordHasher;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.login.SignInMethods;
import dev.klave.store.Database;
import dev.klave.store.JdbiControlEventStore;
import dev.klave.store.JdbiExternalIdentityStore;
import dev.klave.store.JdbiLinkTokenStore;
import dev.klave.store.JdbiLoginFailureStore;
import dev.klave.store.JdbiRateWindowStore;
import dev.klave.store.JdbiSessionStore;
import dev.klave.store.JdbiSubjectStore;
import java.security.SecureRandom;
import java.time.Clock;

/**
 * Accounts and what they stand on: subjects, sessions, link tokens, the control events, the
 * sign-in throttle and the last-administrator rule. The whole of what {@code klave user …}
 * needs, and the base every other area of {@link Services} is built on. Starts no thread.
 */
public final class AccountsWiring {
    final Clock clock;
    final KeyRing keys;
    final SecretTokenGenerator tokens;
    final PasswordHasher hasher;
    final SignInMode mode;
    final SubjectStore subjects;
    final LinkTokenStore linkTokens;
    final SessionStore sessionStore;
    final ControlEvents events;
    final LoginThrottle throttle;
    final Sessions sessions;
    final ExternalIdentityStore identities;
    final LastAdminRule lastAdmin;
    final Accounts accounts;

    private AccountsWiring(Database database, Settings settings, MasterKey masterKey, SignInMethods methods,
            Clock clock, SecureRandom random) {
        this.clock = requireNonNull(clock, "clock is null");
        keys = new KeyRing(masterKey);
        tokens = new SecretTokenGenerator(random);
        hasher = new PasswordHasher(random);
        mode = methods.mode();
        subjects = new JdbiSubjectStore(database);
        linkTokens = new JdbiLinkTokenStore(database);
        sessionStore = new JdbiSessionStore(database);
        events = new ControlEvents(new JdbiControlEventStore(database), clock);
        throttle = new LoginThrottle(new JdbiRateWindowStore(database), new JdbiLoginFailureStore(database),
                settings.addressGroups(), clock);
        sessions = new Sessions(sessionStore, subjects, new Hmac(keys.derive(KeyPurpose.SESSION_COOKIE)), tokens, clock);
        identities = new JdbiExternalIdentityStore(database);
        lastAdmin = new LastAdminRule(subjects, identities, mode);
        accounts = new Accounts(database, subjects, linkTokens, sessions, lastAdmin, events, tokens, clock,
                settings.baseUrl());
    }

    public static AccountsWiring create(Database database, Settings settings, MasterKey masterKey,
            SignInMethods methods, Clock clock, SecureRandom random) {
        requireNonNull(database, "database is null");
        return new AccountsWiring(database, settings, masterKey, methods, clock, random);
    }

    /** Creating and changing accounts (the CLI's {@code user create}, {@code user set-break-glass}). */
    public Accounts accounts() {
        return accounts;
    }
}
