package dev.klave;

import static java.util.Objects.requireNonNull;

import dev.klave.access.AccessRoutes;
import dev.klave.account.AccountLifecycle;
import dev.klave.account.Accounts;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.Links;
import dev.klave.account.OwnAccount;
import dev.klave.account.Sessions;
import dev.klave.agent.approval.AccessRequestLinks;
import dev.klave.agent.approval.AccessRequests;
import dev.klave.agent.approval.Approvals;
import dev.klave.audit.view.AuditQueries;
import dev.klave.audit.view.AuditRoutes;
import dev.klave.audit.AuditWriter;
import dev.klave.audit.ControlEvents;
import dev.klave.cluster.ClusterRoutes;
import dev.klave.config.ExtraCertificates;
import dev.klave.config.MasterKey;
import dev.klave.config.Settings;
import dev.klave.credential.CredentialRoutes;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.Gateway;
import dev.klave.gateway.OpenCalls;
import dev.klave.http.Authenticator;
import dev.klave.notify.Alerts;
import java.net.URI;
import dev.klave.http.NetworkEngine;
import dev.klave.http.ProxyFactory;
import dev.klave.http.RouteProvider;
import dev.klave.installation.AdministratorAlerts;
import dev.klave.installation.Installation;
import dev.klave.installation.InstallationRoutes;
import dev.klave.login.PasswordLogin;
import dev.klave.login.SignInMethods;
import dev.klave.login.forge.ForgeSync;
import dev.klave.login.oidc.OidcProvider;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.store.Database;
import dev.klave.store.JdbiAuditFeed;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.IntSupplier;
import javax.net.ssl.SSLContext;

/** The domain services over one database, wired once by area (the {@code *Wiring} classes). */
public final class Services {
    private final AccountsWiring base;
    private final ClustersWiring clusters;
    private final AuditWiring audit;
    private final RecordingsWiring recordings;
    private final BearersWiring bearers;
    private final GatewayWiring gateway;
    private final AgentsWiring agents;
    private final NotifyWiring notify;
    private final PeopleWiring people;
    private final SignInWiring signIn;
    private final List<RouteProvider> routes;

    /** The areas in the order they were built, each on those before it. */
    private record Areas(AccountsWiring base, ClustersWiring clusters, AuditWiring audit, RecordingsWiring recordings,
            BearersWiring bearers, GatewayWiring gateway, NotifyWiring notifications, AgentsWiring agents,
            PeopleWiring people, SignInWiring signIn) {}

    private Services(Areas areas, List<RouteProvider> routes) {
        this.base = areas.base();
        this.clusters = areas.clusters();
        this.audit = areas.audit();
        this.recordings = areas.recordings();
        this.bearers = areas.bearers();
        this.gateway = areas.gateway();
        this.notify = areas.notifications();
        this.agents = areas.agents();
        this.people = areas.people();
        this.signIn = areas.signIn();
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
        // One name for this replica in every lease it takes (reconciliation, the forge's sync).
        String replica = "replica-" + UUID.randomUUID();
        AccountsWiring base = AccountsWiring.create(database, settings, masterKey, methods, clock, random);
        ClustersWiring clusters = new ClustersWiring(database, settings, base, random, replica, registry);
        AuditWiring audit = new AuditWiring(database, settings, base, replica, registry);
        RecordingsWiring recordings = new RecordingsWiring(database, settings, base, clusters);
        // Before the gateway, which admits calls by the bearers resolved there.
        BearersWiring bearers = new BearersWiring(database, settings, base, clusters);
        GatewayWiring gateway = new GatewayWiring(database, settings, base, clusters, audit, recordings, bearers,
                registry);
        NotifyWiring notify = new NotifyWiring(database, settings, base, outboundTls, random);
        AgentsWiring agents = new AgentsWiring(database, settings, base, clusters, audit, bearers, gateway, notify,
                random, registry);
        PeopleWiring people = new PeopleWiring(database, settings, base, clusters, bearers, agents);
        SignInWiring signIn = new SignInWiring(database, settings, base, people, outboundTls, replica, registry);
        CiWiring ci = new CiWiring(database, settings, base, bearers, outboundTls, registry);
        Areas areas = new Areas(base, clusters, audit, recordings, bearers, gateway, notify, agents, people, signIn);
        Installation installation = installation(database, settings, areas, clock);
        return new Services(areas, routes(database, settings, methods, areas, ci, installation, clock));
    }

    /** The installation's notices and checks; what of them needs an administrator is told outside Klave too. */
    private static Installation installation(Database database, Settings settings, Areas areas, Clock clock) {
        Installation installation = new Installation(() -> database.answersWithin(Duration.ofSeconds(2)),
                areas.base().lastAdmin, areas.base().mode.external(), areas.signIn().oidcProvider(),
                areas.signIn().syncReports, areas.agents().clients.map(registered -> (IntSupplier) registered::count),
                areas.base().events, areas.notifications().destinations::failingNames, clock);
        // Issue 41: once a day per condition.
        areas.notifications().watch(new Alerts(database, areas.notifications().notifier,
                new AdministratorAlerts(installation::notices, areas.clusters().clusterStore::list),
                URI.create(settings.baseUrl().resolve("/admin/instalacion")), clock));
        return installation;
    }

    /** Every area's API routes, in the order they are mounted. */
    private static List<RouteProvider> routes(Database database, Settings settings, SignInMethods methods, Areas areas,
            CiWiring ci, Installation installation, Clock clock) {
        AccountsWiring base = areas.base();
        ClustersWiring clusters = areas.clusters();
        AuditWiring audit = areas.audit();
        BearersWiring bearers = areas.bearers();
        CredentialRoutes credentialRoutes = new CredentialRoutes(bearers.credentials, base.subjects, clock);
        List<RouteProvider> routes = new ArrayList<>();
        routes.add(new InstallationRoutes(installation));
        routes.addAll(areas.signIn().routes(methods, areas.people(), settings));
        routes.add(areas.people().routes(base));
        routes.add(new AuditRoutes(base.events, new AuditQueries(audit.store, audit.writer),
                new JdbiAuditFeed(database), text -> base.subjects.idOrLogin(text).value(),
                new AccessRequestLinks(clusters.accessRequests::coveringAt)::at, clock));
        routes.add(new ClusterRoutes(clusters.clusters, clusters.namespaces, clusters.reconciler,
                clusters.connections, bearers.credentials::revokeAllRestrictedTo, settings.baseUrl()));
        routes.add(new AccessRoutes(clusters.grants, clusters.accessRequests, base.subjects, clock));
        routes.add(credentialRoutes);
        routes.add(ci.routes(settings, base, credentialRoutes));
        // /mcp's mounts before the login's routes, which /.well-known and /oauth belong to.
        routes.addAll(areas.agents().routes());
        routes.add(areas.notifications().routes);
        routes.add(areas.recordings().routes(base));
        return List.copyOf(routes);
    }

    /**
     * Starts the background work of a serving replica, in order: the audit writer, the recording
     * policies' reads and the stream guard (before any request can be proxied), the
     * reconciliations, the agents' decisions and sweep, the notifications, the forge's sync, the
     * OIDC provider's discovery (spec 2 §5: never waited for). Nothing of it starts before.
     */
    public void start() {
        audit.start();
        recordings.start();
        gateway.start();
        clusters.start();
        agents.start();
        notify.start();
        signIn.forgeSync.ifPresent(ForgeSync::start);
        signIn.oidcProvider().ifPresent(OidcProvider::fetchInBackground);
    }

    /**
     * Stops what {@link #start()} started, once the HTTP server has stopped: the agents' and the
     * notifications' work, the stream guard, the reconciliations and the forge's sync, the
     * recordings, then the audit, whose writer writes what it holds. Streams still open are cut
     * first ({@link OpenCalls#cutAll()}) by the caller, before the server drains.
     */
    public void close() {
        agents.close();
        notify.close();
        gateway.close();
        clusters.close();
        signIn.forgeSync.ifPresent(ForgeSync::close);
        recordings.close();
        audit.close();
    }

    public Accounts accounts() {
        return base.accounts;
    }

    public AccountLifecycle lifecycle() {
        return people.lifecycle;
    }

    public OwnAccount own() {
        return people.own;
    }

    public Links links() {
        return people.links;
    }

    public PasswordLogin passwordLogin() {
        return signIn.password;
    }

    public Sessions sessions() {
        return base.sessions;
    }

    public ControlEvents events() {
        return base.events;
    }

    /** The OIDC provider, when OIDC sign-in is on: {@code klave serve} starts its discovery. */
    public Optional<OidcProvider> oidcProvider() {
        return signIn.oidcProvider();
    }

    /** The accounts' forge and OIDC identities. */
    public ExternalIdentityStore identities() {
        return base.identities;
    }

    /** The hourly forge member sync, when the forge is configured; started by {@code klave serve}. */
    public Optional<ForgeSync> forgeSync() {
        return signIn.forgeSync;
    }

    /**
     * Spec 1 §5 "Break-glass": with forge or OIDC sign-in on and no administrator able to sign in,
     * an operator must hear about it at start.
     */
    public boolean externalSignInLeavesNoAdmin() {
        return base.mode.external() && !base.lastAdmin.anyAdminCanSignIn();
    }

    /** Who is calling, from the session cookie; the HTTP edge asks this for every non-anonymous route. */
    public Authenticator authenticator() {
        return base.sessions::authenticate;
    }

    /** The group-commit audit writer; flushed on shutdown before the database closes. */
    public AuditWriter auditWriter() {
        return audit.writer;
    }

    /** Admission of calls to clusters, shared by every way in. */
    /** The one resolver of the bearers presented at every edge (tests turn their tokens into bearers with it). */
    public dev.klave.gateway.BearerResolver bearers() {
        return bearers.bearers;
    }

    public Gateway gateway() {
        return gateway.gateway;
    }

    /** Calls to clusters for callers inside Klave, under the proxy's rules (spec 3's tools). */
    public ClusterExchange clusterExchange() {
        return gateway.clusterExchange;
    }

    /** Watches and followed logs held open by this replica, cut when their credential ends. */
    public OpenCalls openCalls() {
        return gateway.openCalls;
    }

    /** The TLS engine of the listener, chosen by {@code SERVICE_TLS_ENGINE}. */
    public NetworkEngine network() {
        return gateway.network;
    }

    /** The {@code /clusters/…} proxy, built on the HTTP server's Vert.x. */
    public ProxyFactory proxy() {
        return gateway.proxy;
    }

    /** Agents' held writes: holding, waiting for a person, running once (spec 3 §4). */
    public Approvals approvals() {
        return agents.approvals;
    }

    /** Agent sessions' codes and tokens (spec 3 §4 "Agent login"). */
    public AgentTokens agentTokens() {
        return agents.agentTokens;
    }

    /** Agents' access requests, which lend roles once a person approves (spec 3 "request_access"). */
    /** Notifications' destinations and their delivery (issue 41). */
    public dev.klave.notify.Destinations destinations() {
        return notify.destinations;
    }

    /** Recorded exec and attach sessions (issue 42). */
    public dev.klave.recording.Recordings recordings() {
        return recordings.recordings;
    }

    public dev.klave.notify.Deliverer deliverer() {
        return notify.deliverer;
    }

    /** Expiry and ends of access requests, and the holders told ahead (issue 41). */
    public dev.klave.agent.approval.AccessSweep accessSweep() {
        return agents.sweep;
    }

    public AccessRequests accessRequests() {
        return agents.accessRequests;
    }

    /** Every domain package's API routes. */
    public List<RouteProvider> routes() {
        return routes;
    }
}
