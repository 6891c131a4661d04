package dev.klave;

import static java.util.Objects.requireNonNull;

import dev.klave.access.AccessRoutes;
import dev.klave.access.GrantStore;
import dev.klave.access.Grants;
import dev.klave.account.AccountLifecycle;
import dev.klave.account.AccountRoutes;
import dev.klave.account.AccountViews;
import dev.klave.account.Accounts;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.LastAdminRule;
import dev.klave.account.LinkTokenStore;
import dev.klave.account.Links;
import dev.klave.account.LoginThrottle;
import dev.klave.account.OwnAccount;
import dev.klave.account.SessionStore;
import dev.klave.account.Sessions;
import dev.klave.account.SignInMode;
import dev.klave.account.SignedIn;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectStore;
import dev.klave.audit.AuditQueries;
import dev.klave.audit.AuditRoutes;
import dev.klave.audit.AuditWriter;
import dev.klave.audit.ControlEvents;
import dev.klave.ci.ActionsTokenVerifier;
import dev.klave.ci.CiExchange;
import dev.klave.ci.CiRoutes;
import dev.klave.ci.DiscoveryKeyFetcher;
import dev.klave.ci.IssuerKeys;
import dev.klave.ci.TrustRules;
import dev.klave.cluster.ClusterConnections;
import dev.klave.cluster.ClusterRoutes;
import dev.klave.cluster.ClusterStore;
import dev.klave.cluster.Clusters;
import dev.klave.cluster.Namespaces;
import dev.klave.cluster.TokenVault;
import dev.klave.config.BaseUrl;
import dev.klave.config.CiExchangeSettings;
import dev.klave.config.ExtraCertificates;
import dev.klave.config.ForgeSettings;
import dev.klave.config.MasterKey;
import dev.klave.config.OidcSettings;
import dev.klave.config.ServerTls;
import dev.klave.config.Settings;
import dev.klave.credential.CredentialRoutes;
import dev.klave.credential.Credentials;
import dev.klave.crypto.Hmac;
import dev.klave.crypto.KeyPurpose;
import dev.klave.crypto.KeyRing;
import dev.klave.crypto.PasswordHasher;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.http.Authenticator;
import dev.klave.http.ClientAddresses;
import dev.klave.http.NetworkEngine;
import dev.klave.http.ProxyFactory;
import dev.klave.http.RouteProvider;
import dev.klave.installation.Installation;
import dev.klave.installation.InstallationRoutes;
import dev.klave.login.ExternalSignIn;
import dev.klave.login.LoginRoutes;
import dev.klave.login.PasswordLogin;
import dev.klave.login.SignInMethods;
import dev.klave.login.StateCookie;
import dev.klave.login.UsedStateStore;
import dev.klave.login.forge.ForgeClient;
import dev.klave.login.forge.ForgeRoutes;
import dev.klave.login.forge.ForgeSignIn;
import dev.klave.login.forge.ForgeSync;
import dev.klave.login.forge.ForgeWebhook;
import dev.klave.login.forge.SyncReportStore;
import dev.klave.login.oidc.EmailLinking;
import dev.klave.login.oidc.OidcProvider;
import dev.klave.login.oidc.OidcRoutes;
import dev.klave.login.oidc.OidcSignIn;
import dev.klave.gateway.Bearers;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.CredentialChecks;
import dev.klave.gateway.Gateway;
import dev.klave.gateway.OpenStreams;
import dev.klave.proxy.ProxyHandler;
import dev.klave.proxy.RefusalAudit;
import dev.klave.reconcile.Reconciler;
import dev.klave.reconcile.Reconciliations;
import dev.klave.store.Database;
import dev.klave.store.JdbiAccessChanges;
import dev.klave.store.JdbiAuditStore;
import dev.klave.store.JdbiClusterStore;
import dev.klave.store.JdbiControlEventStore;
import dev.klave.store.JdbiCredentialStore;
import dev.klave.store.JdbiDiscoveryStatusStore;
import dev.klave.store.JdbiExchangedTokenStore;
import dev.klave.store.JdbiExternalIdentityStore;
import dev.klave.store.JdbiGrantStore;
import dev.klave.store.JdbiLeaseStore;
import dev.klave.store.JdbiLinkTokenStore;
import dev.klave.store.JdbiLoginFailureStore;
import dev.klave.store.JdbiUsedStateStore;
import dev.klave.store.JdbiRateWindowStore;
import dev.klave.store.JdbiSessionStore;
import dev.klave.store.JdbiSubjectStore;
import dev.klave.store.JdbiSyncReportStore;
import dev.klave.store.JdbiTrustRuleStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/** The domain services over one database, wired once; {@code klave serve} and the CLI share them. */
public final class Services {
    /** Bound on each request to the CI issuer (discovery, keys): a slow forge must not hold exchanges. */

    private final Accounts accounts;
    private final AccountLifecycle lifecycle;
    private final OwnAccount own;
    private final Links links;
    private final Sessions sessions;
    private final PasswordLogin passwordLogin;
    private final ControlEvents events;
    private final Reconciliations reconciliations;
    private final AuditWriter auditWriter;
    private final Gateway gateway;
    private final ClusterExchange clusterExchange;
    private final OpenStreams openStreams;
    private final ProxyFactory proxy;
    private final NetworkEngine network;
    private final List<RouteProvider> routes;
    private final Optional<ForgeSync> forgeSync;
    private final LastAdminRule lastAdmin;
    private final SignInMode mode;
    private final ExternalIdentityStore identities;
    private final Optional<OidcProvider> oidcProvider;

    private Services(Accounts accounts, AccountLifecycle lifecycle, OwnAccount own, Links links, Sessions sessions,
            PasswordLogin passwordLogin, ControlEvents events, Reconciliations reconciliations, AuditWriter auditWriter,
            Gateway gateway, ClusterExchange clusterExchange, OpenStreams openStreams, ProxyFactory proxy, NetworkEngine network,
            List<RouteProvider> routes, Optional<ForgeSync> forgeSync, LastAdminRule lastAdmin, SignInMode mode,
            ExternalIdentityStore identities, Optional<OidcProvider> oidcProvider) {
        this.oidcProvider = oidcProvider;
        this.identities = identities;
        this.forgeSync = forgeSync;
        this.lastAdmin = lastAdmin;
        this.mode = mode;
        this.accounts = accounts;
        this.lifecycle = lifecycle;
        this.own = own;
        this.links = links;
        this.sessions = sessions;
        this.passwordLogin = passwordLogin;
        this.events = events;
        this.reconciliations = reconciliations;
        this.auditWriter = auditWriter;
        this.gateway = gateway;
        this.clusterExchange = clusterExchange;
        this.openStreams = openStreams;
        this.proxy = proxy;
        this.network = network;
        this.routes = routes;
    }

    public static Services create(Database database, Settings settings, MasterKey masterKey, SignInMethods methods,
            Clock clock, SecureRandom random) {
        return create(database, settings, masterKey, methods, clock, random,
                ExtraCertificates.tlsContext(settings.extraCertificates()));
    }

    /**
     * @param outboundTls what calls to the forge, the OIDC provider and the CI issuer trust (tests:
     *     their simulators' CAs)
     */
    public static Services create(Database database, Settings settings, MasterKey masterKey, SignInMethods methods,
            Clock clock, SecureRandom random, SSLContext outboundTls) {
        requireNonNull(database, "database is null");
        BaseUrl baseUrl = settings.baseUrl();
        KeyRing keys = new KeyRing(masterKey);
        SecretTokenGenerator tokens = new SecretTokenGenerator(random);
        PasswordHasher hasher = new PasswordHasher(random);
        SignInMode mode = methods.mode();

        SubjectStore subjects = new JdbiSubjectStore(database);
        LinkTokenStore linkTokens = new JdbiLinkTokenStore(database);
        SessionStore sessionStore = new JdbiSessionStore(database);
        ControlEvents events = new ControlEvents(new JdbiControlEventStore(database), clock);
        LoginThrottle throttle = new LoginThrottle(new JdbiRateWindowStore(database),
                new JdbiLoginFailureStore(database), settings.addressGroups(), clock);
        Sessions sessions = new Sessions(sessionStore, subjects, new Hmac(keys.derive(KeyPurpose.SESSION_COOKIE)),
                tokens, clock);
        ExternalIdentityStore identities = new JdbiExternalIdentityStore(database);
        LastAdminRule lastAdmin = new LastAdminRule(subjects, identities, mode);
        GrantStore grantsForViews = new JdbiGrantStore(database);
        AccountViews views = new AccountViews(identities, sessionStore, linkTokens, lastAdmin,
                () -> activeGrantsBySubject(grantsForViews, clock), clock);

        ClusterStore clusterStore = new JdbiClusterStore(database);
        GrantStore grantStore = new JdbiGrantStore(database);
        TokenVault vault = new TokenVault(keys.derive(KeyPurpose.CLUSTER_TOKENS), random);
        ClusterConnections connections = new ClusterConnections(clusterStore, vault);
        Reconciler reconciler = new Reconciler(clusterStore, connections, grantStore, subjects,
                new JdbiLeaseStore(database), "replica-" + UUID.randomUUID(), clock);
        Reconciliations reconciliations = new Reconciliations(reconciler, clusterStore, grantStore, clock);
        Namespaces namespaces = new Namespaces(connections);
        Clusters clusters = new Clusters(database, clusterStore, vault, events, reconciliations::request, clock);
        Grants grants = new Grants(database, grantStore, subjects, clusterStore, namespaces, events,
                settings.requirePodSecurity(), reconciliations::request, clock);

        JdbiCredentialStore credentialStore = new JdbiCredentialStore(database);
        Credentials credentials = new Credentials(database, credentialStore, subjects, clusterStore,
                grantStore, tokens, events, settings.maxCredentialTtl(), baseUrl, kubeconfigCa(settings), clock);
        JdbiAuditStore auditStore = new JdbiAuditStore(database);
        JdbiAccessChanges accessChanges = new JdbiAccessChanges(database);
        AuditWriter auditWriter = new AuditWriter(auditStore, settings.auditTimeout());
        CredentialChecks credentialChecks = new CredentialChecks(Bearers.proxyCredentials(credentialStore), subjects,
                clusterStore, grantStore, connections, accessChanges, clock);
        ClientAddresses clientAddresses = new ClientAddresses(settings.trustedProxies());
        NetworkEngine network = new NetworkEngine(settings.tlsEngine());
        OpenStreams openStreams = new OpenStreams(credentialChecks, clock);
        Gateway gateway = new Gateway(credentialChecks, auditWriter, openStreams,
                Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("klave-gateway-", 0).factory()), clock);
        ClusterExchange clusterExchange = new ClusterExchange(gateway, clock);
        ProxyFactory proxy = (vertx, blocking, draining) -> {
            RefusalAudit refusals = new RefusalAudit(credentialChecks, auditWriter, blocking,
                    settings.auditTimeout(), clock);
            return new ProxyFactory.Proxy(new ProxyHandler(vertx, gateway, clientAddresses, draining,
                    settings.proxy(), clock, network.tls(), refusals), refusals);
        };

        Accounts accounts = new Accounts(database, subjects, linkTokens, sessions, lastAdmin, events, tokens, clock,
                baseUrl);
        AccountLifecycle lifecycle = new AccountLifecycle(database, subjects, identities, linkTokens, sessions,
                lastAdmin, events,
                List.of(credentials::revokeAllOf), subject -> reconciliations.requestAll(), clock);
        OwnAccount own = new OwnAccount(database, subjects, sessions, hasher, throttle, events, mode);
        Links links = new Links(database, linkTokens, subjects, sessions, hasher, events, mode, clock);
        PasswordLogin passwordLogin = new PasswordLogin(database, subjects, sessions, hasher, throttle, events, mode);
        SignedIn signedIn = new SignedIn(own, views, baseUrl.isHttps());

        CredentialRoutes credentialRoutes = new CredentialRoutes(credentials, subjects, clock);
        CiExchangeSettings ci = settings.ci();
        IssuerKeys issuerKeys = new IssuerKeys(new DiscoveryKeyFetcher(ci.issuer(), outboundTls), clock);
        JdbiTrustRuleStore trustRuleStore = new JdbiTrustRuleStore(database);
        CiExchange exchange = new CiExchange(
                new ActionsTokenVerifier(ci.issuer().toString(), baseUrl.toString(), issuerKeys, clock),
                trustRuleStore, new JdbiExchangedTokenStore(database), subjects, credentials,
                new JdbiRateWindowStore(database), database, events, ci.credentialTtl(), settings.addressGroups(), clock);
        TrustRules trustRules = new TrustRules(database, trustRuleStore, subjects, events, clock);

        String replica = "replica-" + UUID.randomUUID();
        UsedStateStore usedStates = new JdbiUsedStateStore(database);
        Optional<ForgeSync> forgeSync = Optional.empty();
        Optional<SyncReportStore> syncReports = Optional.empty();
        Optional<ForgeRoutes.Configured> forge = Optional.empty();
        if (settings.forge().isPresent()) {
            ForgeSettings forgeSettings = settings.forge().get();
            ForgeClient client = new ForgeClient(forgeSettings, outboundTls, clock);
            // The browser sees the callback under the base URL's path (a front end may strip it).
            StateCookie stateCookie = new StateCookie("service_forge_state", baseUrl.path() + ForgeRoutes.CALLBACK,
                    new Hmac(keys.derive(KeyPurpose.SIGN_IN_STATE)), baseUrl.isHttps(), clock);
            ExternalSignIn signIn = new ExternalSignIn(new ForgeSignIn(client,
                    URI.create(baseUrl.resolve(ForgeRoutes.CALLBACK)), forgeSettings.requireOrgTwoFactor(), clock),
                    stateCookie, database, subjects, identities, linkTokens, sessions, throttle, usedStates, events,
                    tokens, baseUrl.isHttps(), baseUrl.path(), Optional.empty(), clock);
            JdbiSyncReportStore reports = new JdbiSyncReportStore(database);
            syncReports = Optional.of(reports);
            forge = Optional.of(new ForgeRoutes.Configured(forgeSettings, signIn,
                    forgeSettings.webhookSecret().map(secret -> new ForgeWebhook(secret, forgeSettings.org(),
                            identities, lifecycle, client)), reports));
            forgeSync = Optional.of(new ForgeSync(client, identities, lifecycle, new JdbiLeaseStore(database), reports,
                    replica, clock));
        }

        Optional<OidcRoutes.Configured> oidc = Optional.empty();
        if (settings.oidc().isPresent()) {
            OidcSettings oidcSettings = settings.oidc().get();
            OidcProvider provider = new OidcProvider(oidcSettings, outboundTls, new JdbiDiscoveryStatusStore(database),
                    clock);
            StateCookie stateCookie = new StateCookie("service_oidc_state", baseUrl.path() + OidcRoutes.CALLBACK,
                    new Hmac(keys.derive(KeyPurpose.SIGN_IN_STATE)), baseUrl.isHttps(), clock);
            EmailLinking linking = new EmailLinking(oidcSettings.autolink(), subjects, identities, sessionStore,
                    linkTokens, clock);
            ExternalSignIn signIn = new ExternalSignIn(new OidcSignIn(oidcSettings, provider,
                    URI.create(baseUrl.resolve(OidcRoutes.CALLBACK)), linking), stateCookie, database, subjects,
                    identities, linkTokens, sessions, throttle, usedStates, events, tokens, baseUrl.isHttps(),
                    baseUrl.path(), Optional.of(baseUrl.hostAndPort()), clock);
            oidc = Optional.of(new OidcRoutes.Configured(oidcSettings, signIn, provider));
        }

        Installation installation = new Installation(() -> database.answersWithin(Duration.ofSeconds(2)),
                lastAdmin, mode.external(), oidc.map(OidcRoutes.Configured::provider), syncReports, events, clock);

        List<RouteProvider> routes = List.of(
                new InstallationRoutes(installation),
                new ForgeRoutes(forge),
                new OidcRoutes(oidc),
                new AccountRoutes(accounts, lifecycle, own, links, sessions, signedIn, views),
                new LoginRoutes(passwordLogin, methods, signedIn, settings.accessContact()),
                new AuditRoutes(events, new AuditQueries(auditStore, auditWriter)),
                new ClusterRoutes(clusters, namespaces, reconciler, connections, credentials::revokeAllRestrictedTo,
                        baseUrl),
                new AccessRoutes(grants, subjects, clock),
                credentialRoutes,
                new CiRoutes(trustRules, exchange, credentialRoutes, subjects, baseUrl, ci.issuer().toString()));
        return new Services(accounts, lifecycle, own, links, sessions, passwordLogin, events, reconciliations,
                auditWriter, gateway, clusterExchange, openStreams, proxy, network, routes, forgeSync, lastAdmin, mode,
                identities, oidc.map(OidcRoutes.Configured::provider));
    }

    /** How many active grants each subject holds, for the administrators' list of accounts. */
    private static java.util.Map<SubjectId, Integer> activeGrantsBySubject(GrantStore grants, Clock clock) {
        java.util.Map<SubjectId, Integer> counts = new java.util.HashMap<>();
        grants.find(Optional.empty(), Optional.empty(), false).stream()
                .filter(grant -> grant.expiresAt().map(expiry -> expiry.isAfter(clock.instant())).orElse(true))
                .forEach(grant -> counts.merge(grant.subjectId(), 1, Integer::sum));
        return counts;
    }

    private static Optional<String> kubeconfigCa(Settings settings) {
        return settings.tls().flatMap(ServerTls::kubeconfigCa).map(path -> {
            try {
                return Base64.getEncoder().encodeToString(Files.readAllBytes(path));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + path, e);
            }
        });
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

    /** Background reconciliation; started by {@code klave serve}, never by the CLI. */
    public Reconciliations reconciliations() {
        return reconciliations;
    }

    /** The OIDC provider, when OIDC sign-in is on: {@code klave serve} starts its discovery. */
    public Optional<OidcProvider> oidcProvider() {
        return oidcProvider;
    }

    /** The accounts' forge and OIDC identities. */
    public ExternalIdentityStore identities() {
        return identities;
    }

    /** The hourly forge member sync, when the forge is configured; started by {@code klave serve}. */
    public Optional<ForgeSync> forgeSync() {
        return forgeSync;
    }

    /**
     * Spec 1 §5 "Break-glass": with forge or OIDC sign-in on and no administrator able to sign in,
     * an operator must hear about it at start.
     */
    public boolean externalSignInLeavesNoAdmin() {
        return mode.external() && !lastAdmin.anyAdminCanSignIn();
    }

    /** Who is calling, from the session cookie; the HTTP edge asks this for every non-anonymous route. */
    public Authenticator authenticator() {
        return sessions::authenticate;
    }

    /** The group-commit audit writer; flushed on shutdown before the database closes. */
    public AuditWriter auditWriter() {
        return auditWriter;
    }

    /** Admission of calls to clusters, shared by every way in. */
    public Gateway gateway() {
        return gateway;
    }

    /** Calls to clusters for callers inside Klave, under the proxy's rules (spec 3's tools). */
    public ClusterExchange clusterExchange() {
        return clusterExchange;
    }

    /** Watches and followed logs held open by this replica, cut when their credential ends. */
    public OpenStreams openStreams() {
        return openStreams;
    }

    /** The TLS engine of the listener, chosen by {@code SERVICE_TLS_ENGINE}. */
    public NetworkEngine network() {
        return network;
    }

    /** The {@code /clusters/…} proxy, built on the HTTP server's Vert.x. */
    public ProxyFactory proxy() {
        return proxy;
    }

    /** Every domain package's API routes. */
    public List<RouteProvider> routes() {
        return routes;
    }
}
