package dev.klave;

import static java.util.Objects.requireNonNull;

import dev.klave.access.AccessRoutes;
import dev.klave.agent.approval.AccessRequestLinks;
import dev.klave.agent.approval.Approvals;
import dev.klave.audit.AuditWriter;
import dev.klave.audit.view.AuditQueries;
import dev.klave.audit.view.AuditRoutes;
import dev.klave.cluster.ClusterRoutes;
import dev.klave.config.MasterKey;
import dev.klave.config.Settings;
import dev.klave.credential.CredentialRoutes;
import dev.klave.gateway.OpenCalls;
import dev.klave.http.Authenticator;
import dev.klave.http.NetworkEngine;
import dev.klave.http.ProxyFactory;
import dev.klave.http.RouteProvider;
import dev.klave.installation.AdministratorAlerts;
import dev.klave.installation.Installation;
import dev.klave.installation.InstallationRoutes;
import dev.klave.login.SignInMethods;
import dev.klave.login.forge.ForgeSync;
import dev.klave.login.oidc.OidcProvider;
import dev.klave.notify.Alerts;
import dev.klave.store.Database;
import dev.klave.store.JdbiAuditFeed;
import io.micrometer.core.instrument.MeterRegistry;
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

/**
 * The domain services over one database, wired once by area (the {@code *Wiring} classes), each
 * area on those built before it. Only {@link Klave} holds one: what it needs to serve is
 * package-private here, and what tests reach inside is the one list of {@link TestHooks}.
 */
final class Services {
    private final Areas areas;
    private final List<RouteProvider> routes;
    private final TestHooks hooks;

    /** The areas in the order they were built, each on those before it. */
    record Areas(AccountsWiring base, ClustersWiring clusters, AuditWiring audit, RecordingsWiring recordings,
            BearersWiring bearers, GatewayWiring gateway, NotifyWiring notifications, AgentsWiring agents,
            PeopleWiring people, SignInWiring signIn) {}

    private Services(Areas areas, List<RouteProvider> routes) {
        this.areas = areas;
        this.routes = routes;
        this.hooks = new RunningHooks(areas);
    }

    /**
     * @param outboundTls what calls to the forge, the OIDC provider and the CI issuer trust (tests:
     *     their simulators' CAs)
     * @param registry where every package makes its meters ({@code SERVICE_METRICS_LISTEN}); an
     *     empty composite when metrics are off
     */
    static Services create(Database database, Settings settings, MasterKey masterKey, SignInMethods methods,
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
    void start() {
        areas.audit().start();
        areas.recordings().start();
        areas.gateway().start();
        areas.clusters().start();
        areas.agents().start();
        areas.notifications().start();
        areas.signIn().forgeSync.ifPresent(ForgeSync::start);
        areas.signIn().oidcProvider().ifPresent(OidcProvider::fetchInBackground);
    }

    /**
     * Stops what {@link #start()} started, once the HTTP server has stopped: the agents' and the
     * notifications' work, the stream guard, the reconciliations and the forge's sync, the
     * recordings, then the audit, whose writer writes what it holds. Streams still open are cut
     * first ({@link OpenCalls#cutAll()}) by the caller, before the server drains.
     */
    void close() {
        areas.agents().close();
        areas.notifications().close();
        areas.gateway().close();
        areas.clusters().close();
        areas.signIn().forgeSync.ifPresent(ForgeSync::close);
        areas.recordings().close();
        areas.audit().close();
    }

    /**
     * Spec 1 §5 "Break-glass": with forge or OIDC sign-in on and no administrator able to sign in,
     * an operator must hear about it at start.
     */
    boolean externalSignInLeavesNoAdmin() {
        return areas.base().mode.external() && !areas.base().lastAdmin.anyAdminCanSignIn();
    }

    /** Who is calling, from the session cookie; the HTTP edge asks this for every non-anonymous route. */
    Authenticator authenticator() {
        return areas.base().sessions::authenticate;
    }

    /** The TLS engine of the listener, chosen by {@code SERVICE_TLS_ENGINE}. */
    NetworkEngine network() {
        return areas.gateway().network;
    }

    /** The {@code /clusters/…} proxy, built on the HTTP server's Vert.x. */
    ProxyFactory proxy() {
        return areas.gateway().proxy;
    }

    /** Every domain package's API routes. */
    List<RouteProvider> routes() {
        return routes;
    }

    /** The forge's member sync, when the forge is configured: its state for the gauges. */
    Optional<ForgeSync> forgeSync() {
        return areas.signIn().forgeSync;
    }

    /** The OIDC provider, when OIDC sign-in is on: its discovery's state for the gauges. */
    Optional<OidcProvider> oidcProvider() {
        return areas.signIn().oidcProvider();
    }

    /** The calls this replica holds open: the gauges count them, shutdown cuts them, a route's end rechecks them. */
    OpenCalls openCalls() {
        return areas.gateway().openCalls;
    }

    /** Agents' held writes: Klave answers the tools still waiting before it drains. */
    Approvals approvals() {
        return areas.agents().approvals;
    }

    /** The audit writer, whose death makes the replica unready. */
    AuditWriter auditWriter() {
        return areas.audit().writer;
    }

    /** What tests reach inside a running Klave; see {@link TestHooks}. */
    TestHooks hooks() {
        return hooks;
    }
}
