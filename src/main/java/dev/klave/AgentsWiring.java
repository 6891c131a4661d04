package dev.klave;

import dev.klave.account.Subject;
import dev.klave.agent.AgentAuthenticator;
import dev.klave.agent.McpEndpoint;
import dev.klave.agent.McpMeters;
import dev.klave.agent.McpRoutes;
import dev.klave.access.EligibleGrants;
import dev.klave.agent.approval.AccessDecisions;
import dev.klave.agent.approval.AccessPolicies;
import dev.klave.agent.approval.AccessRequestRoutes;
import dev.klave.agent.approval.AccessRequests;
import dev.klave.agent.approval.Askers;
import dev.klave.agent.approval.AccessSweep;
import dev.klave.agent.approval.RequestNotices;
import dev.klave.store.JdbiAccessPolicyStore;
import dev.klave.store.JdbiEligibleGrantStore;
import dev.klave.agent.tool.LookalikeCredentials;
import dev.klave.agent.tool.Toolbox;
import dev.klave.oauth.session.AgentSessionEnds;
import dev.klave.oauth.session.AgentSessions;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.config.AgentSettings;
import dev.klave.config.Settings;
import dev.klave.crypto.Hmac;
import dev.klave.crypto.Sealer;
import dev.klave.crypto.KeyPurpose;
import dev.klave.crypto.SecretTokenGenerator;
import dev.klave.limits.PerAddressLimit;
import dev.klave.messages.Message;
import dev.klave.oauth.client.ClientMetadataDocuments;
import dev.klave.oauth.OAuthRoutes;
import dev.klave.oauth.PendingAuthorizations;
import dev.klave.oauth.client.RegisteredClients;
import dev.klave.oauth.client.Registration;
import dev.klave.store.JdbiClientStore;
import dev.klave.store.JdbiRateWindowStore;
import dev.klave.store.JdbiUsedStateStore;
import java.util.List;
import dev.klave.http.RouteProvider;
import dev.klave.oauth.client.ClientRoutes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import dev.klave.agent.approval.Approvals;
import dev.klave.agent.approval.RequestIds;
import dev.klave.agent.approval.RequestRoutes;
import dev.klave.store.Database;
import dev.klave.store.JdbiWriteRequestStore;
import dev.klave.store.PostgresDecisionSignals;
import java.security.SecureRandom;

/**
 * What agents ask people for (spec 3): held writes and their approvals, access requests, and the
 * routes people decide them through. {@link #start()} starts hearing decisions from other replicas
 * (PostgreSQL's listener thread); nothing starts before.
 */
final class AgentsWiring {
    /** Spec 3 §8: dynamic registration, 20 per minute per IP. */
    private static final int REGISTRATIONS_PER_MINUTE = 20;
    /** Spec 3 §8: /oauth/token and /oauth/revoke, 120 per minute per address (one count for both). */
    private static final int TOKEN_REQUESTS_PER_MINUTE = 120;
    /** Spec 3 §8: /oauth/authorize, 30 per minute per address. */
    private static final int AUTHORIZATIONS_PER_MINUTE = 30;

    final Approvals approvals;
    final AccessRequests accessRequests;
    /** Approving and denying access requests, each what is still allowed then (issue 51). */
    final AccessDecisions accessDecisions;
    final RequestRoutes routes;
    /** People's access requests, eligible grants and clusters' access policies (issue 41). */
    final AccessRequestRoutes peopleRoutes;
    /** Stores run-out requests as expired and ended access as ended, with their events. */
    final AccessSweep sweep;
    final McpRoutes mcp;
    final AgentTokens agentTokens;
    final AgentSessionEnds sessionEnds;
    /** The agent login's routes (spec 3 §4), only with {@code SERVICE_MCP_ENABLED}. */
    final Optional<OAuthRoutes> oauth;
    /** The registered OAuth clients, for administrators (empty with the agent endpoint off). */
    final Optional<RegisteredClients> clients;

    /**
     * Whether a held write's asker can still run it once approved: a delegated agent's session still
     * open, a bot's credential neither revoked nor expired (issue 51 §19).
     */
    private static boolean stillAsking(dev.klave.agent.approval.Actor actor, BearersWiring bearers,
            java.time.Clock clock) {
        java.time.Instant now = clock.instant();
        if (actor.sessionId().isPresent()) {
            return bearers.agentSessions.findById(actor.sessionId().get()).filter(session -> session.openAt(now))
                    .isPresent();
        }
        return actor.credentialId().flatMap(bearers.credentialStore::findById)
                .filter(credential -> !credential.revoked() && !credential.expiredAt(now)).isPresent();
    }

    AgentsWiring(Database database, Settings settings, AccountsWiring accounts, ClustersWiring clusters,
            AuditWiring audit, BearersWiring bearers, GatewayWiring gateway, NotifyWiring notify, SecureRandom random,
            io.micrometer.core.instrument.MeterRegistry registry) {
        RequestIds ids = new RequestIds(random);
        JdbiAccessPolicyStore policyStore = new JdbiAccessPolicyStore(database);
        RequestNotices notices = new RequestNotices(notify.notifier, accounts.subjects, policyStore,
                settings.baseUrl());
        approvals = new Approvals(database, new JdbiWriteRequestStore(database), accounts.subjects, accounts.events,
                PostgresDecisionSignals.of(database), ids, accounts.clock, Approvals.RECHECK, notices,
                actor -> stillAsking(actor, bearers, accounts.clock));
        EligibleGrants eligible = new EligibleGrants(database, new JdbiEligibleGrantStore(database), clusters.grants,
                accounts.subjects, accounts.events, accounts.clock);
        accessRequests = new AccessRequests(database, clusters.accessRequests, policyStore, clusters.grants,
                clusters.authority, eligible,
                accounts.subjects, accounts.events, ids, notices, accounts.clock);
        accessDecisions = new AccessDecisions(accessRequests, database, clusters.accessRequests, policyStore,
                clusters.grants, clusters.authority, eligible, accounts.subjects, accounts.events,
                clusters.reconciliations::request, notices, accounts.clock);
        sweep = new AccessSweep(database, clusters.accessRequests, accounts.subjects, accounts.events, notices,
                clusters.reconciliations::request, accounts.clock);
        routes = new RequestRoutes(approvals, accessRequests, accessDecisions, accounts.subjects, accounts.clock);
        peopleRoutes = new AccessRequestRoutes(accessRequests, accessDecisions, new AccessPolicies(database, policyStore,
                clusters.grants, accounts.subjects, accounts.events, accounts.clock), eligible, clusters.grants,
                clusters.clusterStore, accounts.subjects, audit.store,
                new Askers(bearers.bearers, accounts.subjects, accounts.sessions, accounts.clock), accounts.clock);
        agentTokens = new AgentTokens(database, bearers.agentSessions, bearers.agentTokens, accounts.tokens, accounts.clock);
        sessionEnds = new AgentSessionEnds(bearers.agentSessions);
        AgentSettings agents = settings.agents();
        Optional<McpEndpoint> endpoint = Optional.empty();
        Optional<OAuthRoutes> login = Optional.empty();
        Optional<RegisteredClients> registered = Optional.empty();
        if (agents.mcpEnabled()) {
            AgentAuthenticator authenticator = new AgentAuthenticator(bearers.bearers, accounts.subjects,
                    Subject::writesNeedApproval, bearers.agentSessions::touch, accounts.clock);
            Toolbox tools = new Toolbox(gateway.clusterExchange, clusters.authority, clusters.clusterStore, approvals,
                    accessRequests, settings.baseUrl(),
                    new Hmac(accounts.keys.derive(KeyPurpose.AGENT_REQUEST_STATE)),
                    new Sealer(accounts.keys.derive(KeyPurpose.HELD_WRITES), random), authenticator::stillValid,
                    agents.approvalWait(), LookalikeCredentials.of(agents.hideCredentials()), audit.store, accounts.clock);
            endpoint = Optional.of(new McpEndpoint(authenticator, new JdbiRateWindowStore(database),
                    agents.mcpRateLimit(), tools, new McpMeters(registry), accounts.clock));
            PerAddressLimit registrations = new PerAddressLimit(new JdbiRateWindowStore(database), "oauth-register-ip:",
                    REGISTRATIONS_PER_MINUTE, settings.addressGroups(), accounts.clock,
                    Message.OAUTH_TOO_MANY_REGISTRATIONS);
            PerAddressLimit tokenRequests = new PerAddressLimit(new JdbiRateWindowStore(database), "oauth-token-ip:",
                    TOKEN_REQUESTS_PER_MINUTE, settings.addressGroups(), accounts.clock,
                    Message.OAUTH_TOO_MANY_TOKEN_REQUESTS);
            JdbiClientStore clientStore = new JdbiClientStore(database);
            registered = Optional.of(new RegisteredClients(database, clientStore, accounts.events, accounts.clock));
            OAuthRoutes.Authorization authorization = new OAuthRoutes.Authorization(clientStore,
                    ClientMetadataDocuments.standard(defaultTls(), accounts.clock),
                    new PendingAuthorizations(new Hmac(accounts.keys.derive(KeyPurpose.OAUTH_AUTHORIZATION)),
                            accounts.clock),
                    new PerAddressLimit(new JdbiRateWindowStore(database), "oauth-authorize-ip:",
                            AUTHORIZATIONS_PER_MINUTE, settings.addressGroups(), accounts.clock,
                            Message.AUTHORIZE_TOO_MANY), clusters.authority, accounts.identities,
                    new JdbiUsedStateStore(database), accounts.events);
            login = Optional.of(new OAuthRoutes(new Registration(clientStore, registrations,
                    new SecretTokenGenerator(random), accounts.clock), agentTokens, tokenRequests, authorization,
                    new AgentSessions(database, bearers.agentSessions, accounts.subjects, accounts.events, accounts.clock),
                    settings.baseUrl(), accounts.clock));
        }
        oauth = login;
        clients = registered;
        mcp = new McpRoutes(endpoint, settings.baseUrl());
    }

    /** Client metadata documents are fetched from the public internet: the JDK's trust store. */
    private static javax.net.ssl.SSLContext defaultTls() {
        try {
            return javax.net.ssl.SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no default TLS context", e);
        }
    }

    /** The routes people decide through and the agent endpoint's; its login's last, under /mcp's mounts. */
    List<RouteProvider> routes() {
        List<RouteProvider> all = new ArrayList<>(List.of(routes, peopleRoutes, mcp));
        oauth.ifPresent(all::add);
        clients.map(ClientRoutes::new).ifPresent(all::add);
        return List.copyOf(all);
    }

    void start() {
        approvals.start();
        sweep.start();
    }

    /** Every tool still waiting for a decision returns what it has; then no more decisions are heard. */
    void close() {
        sweep.close();
        approvals.close();
    }
}
