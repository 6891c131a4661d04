package dev.klave;

import dev.klave.audit.AuditRetention;
import dev.klave.audit.AuditWriter;
import dev.klave.config.ServerTls;
import dev.klave.config.Settings;
import dev.klave.credential.Credentials;
import dev.klave.gateway.BearerResolver;
import dev.klave.gateway.CallChain;
import dev.klave.gateway.Bearers;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.CredentialChecks;
import dev.klave.gateway.Gateway;
import dev.klave.gateway.OpenCalls;
import dev.klave.http.ClientAddresses;
import dev.klave.http.NetworkEngine;
import dev.klave.http.ProxyFactory;
import dev.klave.proxy.ProxyHandler;
import dev.klave.proxy.RefusalAudit;
import dev.klave.store.Database;
import dev.klave.oauth.session.SessionBearers;
import dev.klave.store.JdbiAccessChanges;
import dev.klave.store.JdbiAccessRequestStore;
import dev.klave.store.JdbiAgentSessionStore;
import dev.klave.store.JdbiAgentTokenStore;
import dev.klave.store.JdbiAuditStore;
import dev.klave.store.JdbiCredentialStore;
import dev.klave.store.JdbiLeaseStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The way into clusters: credentials, the audit writer, the gateway every way in shares (credential
 * checks, open calls, the in-process exchange) and the proxy built on it once the HTTP server
 * exists. {@link #start()} starts the audit writer's and the stream guard's threads; nothing starts
 * before.
 */
final class GatewayWiring {
    final JdbiCredentialStore credentialStore;
    final Credentials credentials;
    final JdbiAuditStore auditStore;
    /** Recorded exec and attach sessions (issue 42). */
    final dev.klave.recording.Recordings recordings;
    final dev.klave.recording.RecordingPolicies recordingPolicies;
    final AuditWriter auditWriter;
    /** Every token presented at an edge becomes a bearer here, once (issue 52). */
    final BearerResolver bearers;
    final CredentialChecks credentialChecks;
    final JdbiAgentSessionStore agentSessions;
    final JdbiAgentTokenStore agentTokens;
    final JdbiAccessRequestStore accessRequests;
    /** What {@code /mcp} accepts: bots' credentials and delegated agents' access tokens. */
    final SessionBearers agentBearers;
    final OpenCalls openCalls;
    final Gateway gateway;
    /** Every call to a cluster, whichever way it came, as one chain of steps (issue 52). */
    final CallChain chain;
    final ClusterExchange clusterExchange;
    final NetworkEngine network;
    final ProxyFactory proxy;
    /** Deleting audit rows past {@code SERVICE_AUDIT_RETENTION}, when it is set. */
    final Optional<AuditRetention> retention;

    /** @param replica this replica's name in the leases it takes */
    GatewayWiring(Database database, Settings settings, AccountsWiring accounts, ClustersWiring clusters,
            String replica, MeterRegistry registry) {
        Clock clock = accounts.clock;
        credentialStore = new JdbiCredentialStore(database);
        credentials = new Credentials(database, credentialStore, accounts.subjects, clusters.clusterStore,
                clusters.authority, accounts.tokens, accounts.events, settings.maxCredentialTtl(), settings.baseUrl(),
                kubeconfigCa(settings), clock);
        auditStore = new JdbiAuditStore(database);
        auditWriter = new AuditWriter(auditStore, settings.auditTimeout(), registry);
        retention = settings.auditRetention().map(kept -> new AuditRetention(auditStore, new JdbiLeaseStore(database),
                accounts.events, kept, replica, clock));
        agentSessions = new JdbiAgentSessionStore(database);
        agentTokens = new JdbiAgentTokenStore(database);
        accessRequests = new JdbiAccessRequestStore(database);
        agentBearers = new SessionBearers(credentialStore, agentTokens, agentSessions);
        // One check of every bearer: a token presented at the proxy is looked up among the
        // proxy's credentials only (an agent's access token is unknown there, spec 3 §5 3); a
        // bearer admitted at /mcp comes resolved; by id (the stream guard) both kinds are found.
        // One resolver of every bearer (issue 52): a token presented at the proxy is looked up among
        // the proxy's credentials only (an agent's access token is unknown there, spec 3 §5 3), at
        // /mcp among bots' credentials and agents' access tokens; by id (the stream guard) both kinds
        // are found.
        bearers = new BearerResolver(Bearers.proxyCredentials(credentialStore), agentBearers, agentBearers, clock);
        credentialChecks = new CredentialChecks(bearers, clusters.authority, accounts.subjects, clusters.clusterStore,
                clusters.connections, new JdbiAccessChanges(database), clock);
        openCalls = new OpenCalls(credentialChecks, clock, registry);
        // Virtual threads made per task: none exists until a full check runs.
        Executor checking = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("klave-gateway-", 0).factory());
        gateway = new Gateway(credentialChecks, auditWriter, openCalls, checking, clock);
        chain = new CallChain(gateway);
        clusterExchange = new ClusterExchange(gateway, chain, clusters.connections.endpoints(), clock);
        network = new NetworkEngine(settings.tlsEngine());
        recordingPolicies = new dev.klave.recording.RecordingPolicies(
                new dev.klave.store.JdbiRecordingPolicyStore(database), clusters.clusterStore, accounts.events, database,
                clock);
        recordings = new dev.klave.recording.Recordings(new dev.klave.store.JdbiRecordingStore(database),
                recordingPolicies, accounts.events, database, clock, settings.recordings().capBytes(),
                settings.recordings().quotaBytes(), settings.recordings().shareBytes(),
                Optional.of(settings.recordings().retention()),
                dev.klave.proxy.NettySpdyReader.FACTORY);
        ClientAddresses clientAddresses = new ClientAddresses(settings.trustedProxies());
        proxy = (vertx, blocking, draining) -> {
            RefusalAudit refusals = new RefusalAudit(bearers, credentialChecks, auditWriter, blocking, settings.auditTimeout(),
                    clock);
            return new ProxyFactory.Proxy(new ProxyHandler(vertx, gateway, chain, bearers,
                    clusters.connections.endpoints(),
                    clientAddresses, draining, settings.proxy(),
                    clock, network.tls(), refusals, registry, recordings), refusals);
        };
    }

    void start() {
        recordingPolicies.start();
        auditWriter.start();
        openCalls.start();
        retention.ifPresent(AuditRetention::start);
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
}
