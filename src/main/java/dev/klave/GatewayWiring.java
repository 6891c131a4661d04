package dev.klave;

import dev.klave.audit.AuditWriter;
import dev.klave.config.ServerTls;
import dev.klave.config.Settings;
import dev.klave.credential.Credentials;
import dev.klave.gateway.Bearers;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.CredentialChecks;
import dev.klave.gateway.Gateway;
import dev.klave.gateway.OpenStreams;
import dev.klave.http.ClientAddresses;
import dev.klave.http.NetworkEngine;
import dev.klave.http.ProxyFactory;
import dev.klave.proxy.ProxyHandler;
import dev.klave.proxy.RefusalAudit;
import dev.klave.store.Database;
import dev.klave.store.JdbiAccessChanges;
import dev.klave.store.JdbiAuditStore;
import dev.klave.store.JdbiCredentialStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Base64;
import java.util.Optional;
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
    final AuditWriter auditWriter;
    final CredentialChecks credentialChecks;
    final OpenStreams openStreams;
    final Gateway gateway;
    final ClusterExchange clusterExchange;
    final NetworkEngine network;
    final ProxyFactory proxy;

    GatewayWiring(Database database, Settings settings, AccountsWiring accounts, ClustersWiring clusters) {
        Clock clock = accounts.clock;
        credentialStore = new JdbiCredentialStore(database);
        credentials = new Credentials(database, credentialStore, accounts.subjects, clusters.clusterStore,
                clusters.grantStore, accounts.tokens, accounts.events, settings.maxCredentialTtl(), settings.baseUrl(),
                kubeconfigCa(settings), clock);
        auditStore = new JdbiAuditStore(database);
        auditWriter = new AuditWriter(auditStore, settings.auditTimeout());
        credentialChecks = new CredentialChecks(Bearers.proxyCredentials(credentialStore), accounts.subjects,
                clusters.clusterStore, clusters.grantStore, clusters.connections, new JdbiAccessChanges(database), clock);
        openStreams = new OpenStreams(credentialChecks, clock);
        // Virtual threads made per task: none exists until a full check runs.
        gateway = new Gateway(credentialChecks, auditWriter, openStreams,
                Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("klave-gateway-", 0).factory()), clock);
        clusterExchange = new ClusterExchange(gateway, clock);
        network = new NetworkEngine(settings.tlsEngine());
        ClientAddresses clientAddresses = new ClientAddresses(settings.trustedProxies());
        proxy = (vertx, blocking, draining) -> {
            RefusalAudit refusals = new RefusalAudit(credentialChecks, auditWriter, blocking, settings.auditTimeout(),
                    clock);
            return new ProxyFactory.Proxy(new ProxyHandler(vertx, gateway, clientAddresses, draining, settings.proxy(),
                    clock, network.tls(), refusals), refusals);
        };
    }

    void start() {
        auditWriter.start();
        openStreams.start();
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
