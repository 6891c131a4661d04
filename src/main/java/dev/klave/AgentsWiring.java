package dev.klave;

import dev.klave.agent.approval.AccessRequests;
import dev.klave.agent.approval.Approvals;
import dev.klave.agent.approval.RequestIds;
import dev.klave.agent.approval.RequestRoutes;
import dev.klave.store.Database;
import dev.klave.store.JdbiAccessRequestStore;
import dev.klave.store.JdbiWriteRequestStore;
import dev.klave.store.PostgresDecisionSignals;
import java.security.SecureRandom;

/**
 * What agents ask people for (spec 3): held writes and their approvals, access requests, and the
 * routes people decide them through. {@link #start()} starts hearing decisions from other replicas
 * (PostgreSQL's listener thread); nothing starts before.
 */
final class AgentsWiring {
    final Approvals approvals;
    final AccessRequests accessRequests;
    final RequestRoutes routes;

    AgentsWiring(Database database, AccountsWiring accounts, ClustersWiring clusters, SecureRandom random) {
        RequestIds ids = new RequestIds(random);
        approvals = new Approvals(database, new JdbiWriteRequestStore(database), accounts.subjects, accounts.events,
                PostgresDecisionSignals.of(database), ids, accounts.clock);
        accessRequests = new AccessRequests(database, new JdbiAccessRequestStore(database), clusters.grants,
                accounts.subjects, accounts.events, ids, accounts.clock);
        routes = new RequestRoutes(approvals, accessRequests, accounts.subjects, accounts.clock);
    }

    void start() {
        approvals.start();
    }

    /** Every tool still waiting for a decision returns what it has; then no more decisions are heard. */
    void close() {
        approvals.close();
    }
}
