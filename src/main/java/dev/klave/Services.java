package dev.klave;

import static java.util.Objects.requireNonNull;

import dev.klave.access.AccessRoutes;
import dev.klave.account.AccountLifecycle;
import dev.klave.account.Accounts;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.Links;
import dev.klave.account.OwnAccount;
import dev.klave.account.Sessions;
import dev.klave.agent.approval.AccessRequest;
import dev.klave.agent.approval.AccessRequests;
import dev.klave.agent.approval.Approvals;
import dev.klave.audit.view.AuditQueries;
import dev.klave.audit.AuditRetention;
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
import dev.klave.notify.Destination;
import java.net.URI;
import dev.klave.http.NetworkEngine;
import dev.klave.http.ProxyFactory;
import dev.klave.http.RouteProvider;
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
    private final GatewayWiring gateway;
    private final AgentsWiring agents;
    private final NotifyWiring notify;
    private final PeopleWiring people;
    private final SignInWiring signIn;
    private final List<RouteProvider> routes;

    private Services(AccountsWiring base, ClustersWiring clusters, GatewayWiring gateway, AgentsWiring agents,
            PeopleWiring people, SignInWiring signIn, NotifyWiring notify, List<RouteProvider> routes) {
        this.notify = notify;
        this.base = base;
        this.clusters = clusters;
        this.gateway = gateway;
        this.agents = agents;
        this.people = people;
        this.signIn = signIn;
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
        GatewayWiring gateway = new GatewayWiring(database, settings, base, clusters, replica, registry);
        NotifyWiring notify = new NotifyWiring(database, settings, base, outboundTls, random);
        AgentsWiring agents = new AgentsWiring(database, settings, base, clusters, gateway, notify, random, registry);
        PeopleWiring people = new PeopleWiring(database, settings, base, clusters, gateway, agents);
        SignInWiring signIn = new SignInWiring(database, settings, base, people, outboundTls, replica, registry);
        CiWiring ci = new CiWiring(database, settings, base, gateway, outboundTls, registry);
        Installation installation = new Installation(() -> database.answersWithin(Duration.ofSeconds(2)),
                base.lastAdmin, base.mode.external(), signIn.oidcProvider(), signIn.syncReports,
                agents.clients.map(registered -> (IntSupplier) registered::count), base.events,
                () -> notify.destinations.failing(FAILING_DESTINATION).stream().map(Destination::name).toList(), clock);
        // Issue 41: what needs an administrator is also told outside Klave, once a day per condition.
        notify.watch(new Alerts(database, notify.notifier, () -> alerts(installation, clusters),
                URI.create(settings.baseUrl().resolve("/admin/instalacion")), clock));
        CredentialRoutes credentialRoutes = new CredentialRoutes(gateway.credentials, base.subjects, clock);
        List<RouteProvider> routes = new ArrayList<>();
        routes.add(new InstallationRoutes(installation));
        routes.addAll(signIn.routes(methods, people, settings));
        routes.add(people.routes(base));
        routes.add(new AuditRoutes(base.events, new AuditQueries(gateway.auditStore, gateway.auditWriter),
                new JdbiAuditFeed(database), text -> base.subjects.idOrLogin(text).value(),
                (subject, cluster, at) -> requestLink(gateway, subject, cluster, at), clock));
        routes.add(new ClusterRoutes(clusters.clusters, clusters.namespaces, clusters.reconciler,
                clusters.connections, gateway.credentials::revokeAllRestrictedTo, settings.baseUrl()));
        routes.add(new AccessRoutes(clusters.grants, gateway.accessRequests, base.subjects, clock));
        routes.add(credentialRoutes);
        routes.add(ci.routes(settings, base, credentialRoutes));
        // /mcp's mounts before the login's routes, which /.well-known and /oauth belong to.
        routes.addAll(agents.routes());
        routes.add(notify.routes);
        routes.add(new dev.klave.recording.RecordingRoutes(gateway.recordings.library(), gateway.recordingPolicies,
                base.subjects::idOrLogin));
        return new Services(base, clusters, gateway, agents, people, signIn, notify, List.copyOf(routes));
    }

    /** The access request an audit row's request was made under; a row naming no valid subject or cluster has none. */
    private static java.util.Optional<String> requestLink(GatewayWiring gateway, String subject, String cluster,
            java.time.Instant at) {
        if (!dev.klave.cluster.ClusterId.isValid(cluster)) {
            return java.util.Optional.empty();
        }
        try {
            return gateway.accessRequests.coveringAt(new dev.klave.account.SubjectId(subject),
                    new dev.klave.cluster.ClusterId(cluster), at).map(AccessRequest::id);
        } catch (IllegalArgumentException notAnId) {
            return java.util.Optional.empty();
        }
    }

    /** A destination failing this long is an installation notice (issue 41). */
    static final Duration FAILING_DESTINATION = Duration.ofMinutes(15);

    /** Administrators' notices, and each cluster whose last reconciliation failed (it does not answer). */
    private static List<Alerts.Alert> alerts(Installation installation, ClustersWiring clusters) {
        List<Alerts.Alert> alerts = new ArrayList<>();
        installation.notices().stream().filter(notice -> notice.level() == dev.klave.installation.NoticeLevel.WARNING)
                .forEach(notice -> alerts.add(new Alerts.Alert(notice.code().code(), "", notice.message())));
        clusters.clusterStore.list().stream().filter(cluster -> cluster.lastError().isPresent())
                .forEach(cluster -> alerts.add(new Alerts.Alert("cluster_unreachable", cluster.id().value(),
                        dev.klave.messages.Text.NOTIFY_CLUSTER_UNREACHABLE.text(cluster.id().value()))));
        return alerts;
    }

    /**
     * Starts the background work of a serving replica, in order: the audit writer and the stream
     * guard (before any request can be proxied), the reconciliations, the forge's sync, the OIDC
     * provider's discovery (spec 2 §5: never waited for). Nothing of it starts before.
     */
    public void start() {
        gateway.start();
        clusters.start();
        agents.start();
        notify.start();
        signIn.forgeSync.ifPresent(ForgeSync::start);
        signIn.oidcProvider().ifPresent(OidcProvider::fetchInBackground);
    }

    /**
     * Stops what {@link #start()} started, once the HTTP server has stopped: the stream guard,
     * the reconciliations and the forge's sync, then the audit writer, which writes what it holds.
     * Streams still open are cut first ({@link OpenCalls#cutAll()}) by the caller, before the
     * server drains.
     */
    public void close() {
        agents.close();
        notify.close();
        gateway.openCalls.close();
        clusters.close();
        signIn.forgeSync.ifPresent(ForgeSync::close);
        gateway.retention.ifPresent(AuditRetention::close);
        gateway.recordings.close();
        gateway.recordingPolicies.close();
        gateway.auditWriter.close();
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
        return gateway.auditWriter;
    }

    /** Admission of calls to clusters, shared by every way in. */
    /** The one resolver of the bearers presented at every edge (tests turn their tokens into bearers with it). */
    public dev.klave.gateway.BearerResolver bearers() {
        return gateway.bearers;
    }

    public Gateway gateway() {
        return gateway.gateway;
    }

    /** Every call to a cluster, whichever way it came; it knows those not ended yet. */
    public dev.klave.gateway.CallChain chain() {
        return gateway.chain;
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
        return gateway.recordings;
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
