package dev.klave;

import static java.util.Objects.requireNonNull;

import dev.klave.access.AccessRoutes;
import dev.klave.access.GrantStore;
import dev.klave.account.AccountLifecycle;
import dev.klave.agent.approval.AccessRequests;
import dev.klave.agent.approval.Approvals;
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
import dev.klave.cluster.ClusterRoutes;
import dev.klave.config.BaseUrl;
import dev.klave.config.CiExchangeSettings;
import dev.klave.config.ExtraCertificates;
import dev.klave.config.ForgeSettings;
import dev.klave.config.MasterKey;
import dev.klave.config.OidcSettings;
import dev.klave.config.Settings;
import dev.klave.credential.CredentialRoutes;
import dev.klave.credential.Credentials;
import dev.klave.crypto.Hmac;
import dev.klave.crypto.KeyPurpose;
import dev.klave.crypto.KeyRing;
import dev.klave.crypto.PasswordHasher;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.http.Authenticator;
import dev.klave.http.NetworkEngine;
import dev.klave.http.ProxyFactory;
import dev.klave.http.RouteProvider;
import dev.klave.installation.Installation;
import dev.klave.installation.InstallationRoutes;
import dev.klave.login.ExternalSignIn;
import dev.klave.login.LoginRoutes;
import dev.klave.login.PasswordLogin;
import dev.klave.login.SignInMeters;
import dev.klave.login.SignInMethods;
import dev.klave.login.StateCookie;
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
import dev.klave.oauth.ClientRoutes;
import dev.klave.audit.AuditRetention;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.Gateway;
import dev.klave.gateway.OpenStreams;
import dev.klave.reconcile.Reconciliations;
import dev.klave.store.Database;
import dev.klave.store.JdbiDiscoveryStatusStore;
import dev.klave.store.JdbiExchangedTokenStore;
import dev.klave.store.JdbiAuditFeed;
import dev.klave.store.JdbiLeaseStore;
import dev.klave.store.JdbiUsedStateStore;
import dev.klave.store.JdbiRateWindowStore;
import dev.klave.store.JdbiSyncReportStore;
import dev.klave.store.JdbiTrustRuleStore;
import dev.klave.storage.UsedStateStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.IntSupplier;
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
    private final ClustersWiring clusterArea;
    private final GatewayWiring way;
    private final AgentsWiring agents;
    private final List<RouteProvider> routes;
    private final Optional<ForgeSync> forgeSync;
    private final LastAdminRule lastAdmin;
    private final SignInMode mode;
    private final ExternalIdentityStore identities;
    private final Optional<OidcProvider> oidcProvider;

    private Services(ClustersWiring clusterArea, GatewayWiring way, AgentsWiring agents, Accounts accounts,
            AccountLifecycle lifecycle, OwnAccount own, Links links, Sessions sessions, PasswordLogin passwordLogin,
            ControlEvents events,
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
        this.clusterArea = clusterArea;
        this.way = way;
        this.agents = agents;
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
        return create(database, settings, masterKey, methods, clock, random, outboundTls, new CompositeMeterRegistry());
    }

    /**
     * @param registry where every package makes its meters ({@code SERVICE_METRICS_LISTEN}); an
     *     empty composite when metrics are off
     */
    public static Services create(Database database, Settings settings, MasterKey masterKey, SignInMethods methods,
            Clock clock, SecureRandom random, SSLContext outboundTls, MeterRegistry registry) {
        requireNonNull(database, "database is null");
        requireNonNull(registry, "registry is null");
        SignInMeters signIns = new SignInMeters(registry);
        BaseUrl baseUrl = settings.baseUrl();
        // One name for this replica in every lease it takes (reconciliation, the forge's sync).
        String replica = "replica-" + UUID.randomUUID();
        AccountsWiring base = AccountsWiring.create(database, settings, masterKey, methods, clock, random);
        ClustersWiring clusterArea = new ClustersWiring(database, settings, base, random, replica, registry);
        GatewayWiring way = new GatewayWiring(database, settings, base, clusterArea, replica, registry);
        AgentsWiring agents = new AgentsWiring(database, settings, base, clusterArea, way, random,
                registry);
        KeyRing keys = base.keys;
        SecretTokenGenerator tokens = base.tokens;
        PasswordHasher hasher = base.hasher;
        SignInMode mode = base.mode;
        SubjectStore subjects = base.subjects;
        LinkTokenStore linkTokens = base.linkTokens;
        SessionStore sessionStore = base.sessionStore;
        ControlEvents events = base.events;
        LoginThrottle throttle = base.throttle;
        Sessions sessions = base.sessions;
        ExternalIdentityStore identities = base.identities;
        LastAdminRule lastAdmin = base.lastAdmin;
        Accounts accounts = base.accounts;
        GrantStore grantStore = clusterArea.grantStore;
        AccountViews views = new AccountViews(identities, sessionStore, linkTokens, lastAdmin,
                shown -> grantStore.countActive(shown, clock.instant()),
                shown -> way.credentialStore.countActive(shown, clock.instant()), clock);
        Reconciliations reconciliations = clusterArea.reconciliations;
        Credentials credentials = way.credentials;
        AccountLifecycle lifecycle = new AccountLifecycle(database, subjects, identities, linkTokens, sessions,
                lastAdmin, events,
                List.of(credentials::revokeAllOf, agents.sessionEnds), agents.sessionEnds,
                subject -> reconciliations.requestAll(), clock);
        OwnAccount own = new OwnAccount(database, subjects, sessions, hasher, throttle, events, mode, agents.sessionEnds,
                clock);
        Links links = new Links(database, linkTokens, subjects, sessions, hasher, events, mode, agents.sessionEnds,
                clock);
        PasswordLogin passwordLogin = new PasswordLogin(database, subjects, sessions, hasher, throttle, events, mode,
                signIns);
        SignedIn signedIn = new SignedIn(own, views, baseUrl.isHttps());

        CredentialRoutes credentialRoutes = new CredentialRoutes(credentials, subjects, clock);
        CiExchangeSettings ci = settings.ci();
        IssuerKeys issuerKeys = new IssuerKeys(new DiscoveryKeyFetcher(ci.issuer(), outboundTls), clock);
        JdbiTrustRuleStore trustRuleStore = new JdbiTrustRuleStore(database);
        CiExchange exchange = new CiExchange(
                new ActionsTokenVerifier(ci.issuer().toString(), baseUrl.toString(), issuerKeys, clock),
                trustRuleStore, new JdbiExchangedTokenStore(database), subjects, credentials,
                new JdbiRateWindowStore(database), database, events, ci.credentialTtl(), settings.addressGroups(), clock,
                registry);
        TrustRules trustRules = new TrustRules(database, trustRuleStore, subjects, events, clock);

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
                    tokens, baseUrl.isHttps(), baseUrl.path(), Optional.empty(), clock, signIns);
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
                    baseUrl.path(), Optional.of(baseUrl.hostAndPort()), clock, signIns);
            oidc = Optional.of(new OidcRoutes.Configured(oidcSettings, signIn, provider));
        }

        Installation installation = new Installation(() -> database.answersWithin(Duration.ofSeconds(2)),
                lastAdmin, mode.external(), oidc.map(OidcRoutes.Configured::provider), syncReports,
                agents.clients.map(clients -> (IntSupplier) clients::count), events, clock);

        List<RouteProvider> routes = new ArrayList<>(List.of(
                new InstallationRoutes(installation),
                new ForgeRoutes(forge),
                new OidcRoutes(oidc),
                new AccountRoutes(accounts, lifecycle, own, links, sessions, signedIn, views),
                new LoginRoutes(passwordLogin, methods, signedIn, settings.accessContact()),
                new AuditRoutes(events, new AuditQueries(way.auditStore, way.auditWriter),
                        new JdbiAuditFeed(database), text -> subjects.idOrLogin(text).value()),
                new ClusterRoutes(clusterArea.clusters, clusterArea.namespaces, clusterArea.reconciler,
                        clusterArea.connections, credentials::revokeAllRestrictedTo, baseUrl),
                new AccessRoutes(clusterArea.grants, subjects, clock),
                credentialRoutes,
                new CiRoutes(trustRules, exchange, credentialRoutes, subjects, baseUrl, ci.issuer().toString()),
                agents.routes,
                agents.mcp));
        // After /mcp's mounts, which /.well-known and /oauth belong to.
        agents.oauth.ifPresent(routes::add);
        agents.clients.map(ClientRoutes::new).ifPresent(routes::add);
        return new Services(clusterArea, way, agents, accounts, lifecycle, own, links, sessions, passwordLogin, events,
                List.copyOf(routes), forgeSync, lastAdmin, mode, identities, oidc.map(OidcRoutes.Configured::provider));
    }

    /**
     * Starts the background work of a serving replica, in order: the audit writer and the stream
     * guard (before any request can be proxied), the reconciliations, the forge's sync, the OIDC
     * provider's discovery (spec 2 §5: never waited for). Nothing of it starts before.
     */
    public void start() {
        way.start();
        clusterArea.start();
        agents.start();
        forgeSync.ifPresent(ForgeSync::start);
        oidcProvider.ifPresent(OidcProvider::fetchInBackground);
    }

    /**
     * Stops what {@link #start()} started, once the HTTP server has stopped: the stream guard,
     * the reconciliations and the forge's sync, then the audit writer, which writes what it holds.
     * Streams still open are cut first ({@link OpenStreams#cutAll()}) by the caller, before the
     * server drains.
     */
    public void close() {
        agents.close();
        way.openStreams.close();
        clusterArea.close();
        forgeSync.ifPresent(ForgeSync::close);
        way.retention.ifPresent(AuditRetention::close);
        way.auditWriter.close();
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
        return clusterArea.reconciliations;
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
        return way.auditWriter;
    }

    /** Admission of calls to clusters, shared by every way in. */
    public Gateway gateway() {
        return way.gateway;
    }

    /** Calls to clusters for callers inside Klave, under the proxy's rules (spec 3's tools). */
    public ClusterExchange clusterExchange() {
        return way.clusterExchange;
    }

    /** Watches and followed logs held open by this replica, cut when their credential ends. */
    public OpenStreams openStreams() {
        return way.openStreams;
    }

    /** The TLS engine of the listener, chosen by {@code SERVICE_TLS_ENGINE}. */
    public NetworkEngine network() {
        return way.network;
    }

    /** The {@code /clusters/…} proxy, built on the HTTP server's Vert.x. */
    public ProxyFactory proxy() {
        return way.proxy;
    }

    /** Agents' held writes: holding, waiting for a person, running once (spec 3 §4). */
    public Approvals approvals() {
        return agents.approvals;
    }

    /** Agents' access requests, which become grants once a person approves (spec 3 "request_access"). */
    /** Agent sessions' codes and tokens (spec 3 §4 "Agent login"). */
    public dev.klave.oauth.AgentTokens agentTokens() {
        return agents.agentTokens;
    }

    public AccessRequests accessRequests() {
        return agents.accessRequests;
    }

    /** Every domain package's API routes. */
    public List<RouteProvider> routes() {
        return routes;
    }
}
