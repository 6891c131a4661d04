package dev.klave;

import static java.util.Objects.requireNonNull;

import dev.klave.account.AccountLifecycle;
import dev.klave.account.AccountRoutes;
import dev.klave.account.Accounts;
import dev.klave.account.LastAdminRule;
import dev.klave.account.LinkTokenStore;
import dev.klave.account.Links;
import dev.klave.account.LoginThrottle;
import dev.klave.account.OwnAccount;
import dev.klave.account.SessionStore;
import dev.klave.account.Sessions;
import dev.klave.account.SignInMode;
import dev.klave.account.SignedIn;
import dev.klave.account.SubjectStore;
import dev.klave.audit.AuditRoutes;
import dev.klave.audit.ControlEvents;
import dev.klave.config.BaseUrl;
import dev.klave.config.MasterKey;
import dev.klave.crypto.Hmac;
import dev.klave.crypto.KeyPurpose;
import dev.klave.crypto.KeyRing;
import dev.klave.crypto.PasswordHasher;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.http.Authenticator;
import dev.klave.http.RouteProvider;
import dev.klave.login.LoginRoutes;
import dev.klave.login.PasswordLogin;
import dev.klave.login.SignInMethods;
import dev.klave.store.Database;
import dev.klave.store.JdbiControlEventStore;
import dev.klave.store.JdbiLinkTokenStore;
import dev.klave.store.JdbiLoginFailureStore;
import dev.klave.store.JdbiRateWindowStore;
import dev.klave.store.JdbiSessionStore;
import dev.klave.store.JdbiSubjectStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;

/** The domain services over one database, wired once; {@code klave serve} and the CLI share them. */
public final class Services {
    private final Accounts accounts;
    private final AccountLifecycle lifecycle;
    private final OwnAccount own;
    private final Links links;
    private final Sessions sessions;
    private final PasswordLogin passwordLogin;
    private final ControlEvents events;
    private final List<RouteProvider> routes;

    private Services(Accounts accounts, AccountLifecycle lifecycle, OwnAccount own, Links links, Sessions sessions,
            PasswordLogin passwordLogin, ControlEvents events, List<RouteProvider> routes) {
        this.accounts = accounts;
        this.lifecycle = lifecycle;
        this.own = own;
        this.links = links;
        this.sessions = sessions;
        this.passwordLogin = passwordLogin;
        this.events = events;
        this.routes = routes;
    }

    public static Services create(Database database, BaseUrl baseUrl, MasterKey masterKey, SignInMethods methods,
            Clock clock, SecureRandom random) {
        requireNonNull(database, "database is null");
        KeyRing keys = new KeyRing(masterKey);
        SecretTokenGenerator tokens = new SecretTokenGenerator(random);
        PasswordHasher hasher = new PasswordHasher(random);
        SignInMode mode = methods.mode();

        SubjectStore subjects = new JdbiSubjectStore(database);
        LinkTokenStore linkTokens = new JdbiLinkTokenStore(database);
        SessionStore sessionStore = new JdbiSessionStore(database);
        ControlEvents events = new ControlEvents(new JdbiControlEventStore(database), clock);
        LoginThrottle throttle = new LoginThrottle(new JdbiRateWindowStore(database),
                new JdbiLoginFailureStore(database), clock);
        Sessions sessions = new Sessions(sessionStore, subjects, new Hmac(keys.derive(KeyPurpose.SESSION_COOKIE)),
                tokens, clock);
        LastAdminRule lastAdmin = new LastAdminRule(subjects, mode);

        Accounts accounts = new Accounts(database, subjects, linkTokens, sessions, lastAdmin, events, tokens, clock,
                baseUrl);
        AccountLifecycle lifecycle = new AccountLifecycle(database, subjects, linkTokens, sessions, lastAdmin, events,
                List.of(), clock);
        OwnAccount own = new OwnAccount(database, subjects, sessions, hasher, throttle, events, mode);
        Links links = new Links(database, linkTokens, subjects, sessions, hasher, events, mode, clock);
        PasswordLogin passwordLogin = new PasswordLogin(database, subjects, sessions, hasher, throttle, events, mode);
        SignedIn signedIn = new SignedIn(own, baseUrl.isHttps());

        List<RouteProvider> routes = List.of(
                new AccountRoutes(accounts, lifecycle, own, links, sessions, signedIn),
                new LoginRoutes(passwordLogin, methods, signedIn),
                new AuditRoutes(events));
        return new Services(accounts, lifecycle, own, links, sessions, passwordLogin, events, routes);
    }

    public Accounts accounts() {
        return accounts;
    }

    public AccountLifecycle lifecycle() {
        return lifecycle;
    }

    public OwnAccount own() {
        return own;
    }

    public Links links() {
        return links;
    }

    public Sessions sessions() {
        return sessions;
    }

    public PasswordLogin passwordLogin() {
        return passwordLogin;
    }

    public ControlEvents events() {
        return events;
    }

    /** Who is calling, from the session cookie; the HTTP edge asks this for every non-anonymous route. */
    public Authenticator authenticator() {
        return sessions::authenticate;
    }

    /** Every domain package's API routes. */
    public List<RouteProvider> routes() {
        return routes;
    }
}
