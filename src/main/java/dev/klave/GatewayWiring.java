package dev.klave;

import dev.klave.config.Settings;
import dev.klave.gateway.CallChain;
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
import dev.klave.store.JdbiAccessChanges;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The way into clusters every way in shares: the checks of the bearers {@link BearersWiring}
 * resolves, the open calls and their guard, the gateway that admits each call with its audit row
 * first ({@link AuditWiring}), the in-process exchange of the tools, and the proxy built on it
 * once the HTTP server exists (its upgrades tapped for {@link RecordingsWiring}). {@link #start()}
 * starts the stream guard; {@link #close()} stops it. Nothing starts before.
 */
final class GatewayWiring {
    final CredentialChecks credentialChecks;
    final OpenCalls openCalls;
    final Gateway gateway;
    /** Every call to a cluster, whichever way it came, as one chain of steps (issue 52). */
    final CallChain chain;
    final ClusterExchange clusterExchange;
    final NetworkEngine network;
    final ProxyFactory proxy;

    GatewayWiring(Database database, Settings settings, AccountsWiring accounts, ClustersWiring clusters,
            AuditWiring audit, RecordingsWiring recordings, BearersWiring bearers, MeterRegistry registry) {
        Clock clock = accounts.clock;
        credentialChecks = new CredentialChecks(bearers.bearers, clusters.authority, accounts.subjects,
                clusters.clusterStore, clusters.connections, new JdbiAccessChanges(database), clock);
        openCalls = new OpenCalls(credentialChecks, clock, registry);
        // Virtual threads made per task: none exists until a full check runs.
        Executor checking = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("klave-gateway-", 0).factory());
        gateway = new Gateway(credentialChecks, audit.writer, openCalls, checking, clock);
        chain = new CallChain(gateway);
        clusterExchange = new ClusterExchange(gateway, chain, clusters.connections.endpoints(), clock);
        network = new NetworkEngine(settings.tlsEngine());
        ClientAddresses clientAddresses = new ClientAddresses(settings.trustedProxies());
        proxy = (vertx, blocking, draining) -> {
            RefusalAudit refusals = new RefusalAudit(bearers.bearers, credentialChecks, audit.writer, blocking,
                    settings.auditTimeout(), clock);
            return new ProxyFactory.Proxy(new ProxyHandler(vertx, gateway, chain, bearers.bearers,
                    clusters.connections.endpoints(), clientAddresses, draining, settings.proxy(), clock,
                    network.tls(), refusals, registry, recordings.recordings), refusals);
        };
    }

    void start() {
        openCalls.start();
    }

    void close() {
        openCalls.close();
    }
}
