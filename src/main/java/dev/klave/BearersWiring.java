package dev.klave;

import dev.klave.config.ServerTls;
import dev.klave.config.Settings;
import dev.klave.credential.Credentials;
import dev.klave.gateway.BearerResolver;
import dev.klave.gateway.Bearers;
import dev.klave.oauth.session.SessionBearers;
import dev.klave.store.Database;
import dev.klave.store.JdbiAgentSessionStore;
import dev.klave.store.JdbiAgentTokenStore;
import dev.klave.store.JdbiCredentialStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Base64;
import java.util.Optional;

/**
 * What a token presented at an edge can stand for, and the one resolver that says which (issue 52):
 * people's and bots' credentials ({@link Credentials} issues and revokes them; their kubeconfigs
 * carry {@code SERVICE_KUBECONFIG_CA}), delegated agents' sessions and their codes and tokens
 * (spec 3 §4 "Agent login"), and {@link SessionBearers}, what {@code /mcp} accepts. Built before
 * the gateway, which admits calls by the bearers resolved here, and before the agents' area, which
 * issues and ends the sessions. Starts no thread.
 */
final class BearersWiring {
    final JdbiCredentialStore credentialStore;
    final Credentials credentials;
    final JdbiAgentSessionStore agentSessions;
    final JdbiAgentTokenStore agentTokens;
    /** What {@code /mcp} accepts: bots' credentials and delegated agents' access tokens. */
    final SessionBearers agentBearers;
    /** Every token presented at an edge becomes a bearer here, once. */
    final BearerResolver bearers;

    BearersWiring(Database database, Settings settings, AccountsWiring accounts, ClustersWiring clusters) {
        credentialStore = new JdbiCredentialStore(database);
        credentials = new Credentials(database, credentialStore, accounts.subjects, clusters.clusterStore,
                clusters.authority, accounts.tokens, accounts.events, settings.maxCredentialTtl(), settings.baseUrl(),
                kubeconfigCa(settings), accounts.clock);
        agentSessions = new JdbiAgentSessionStore(database);
        agentTokens = new JdbiAgentTokenStore(database);
        agentBearers = new SessionBearers(credentialStore, agentTokens, agentSessions);
        // A token presented at the proxy is looked up among the proxy's credentials only (an agent's
        // access token is unknown there, spec 3 §5 3), at /mcp among bots' credentials and agents'
        // access tokens; by id (the stream guard) both kinds are found.
        bearers = new BearerResolver(Bearers.proxyCredentials(credentialStore), agentBearers, agentBearers,
                accounts.clock);
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
