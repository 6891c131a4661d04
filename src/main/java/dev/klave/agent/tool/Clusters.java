package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import dev.klave.gateway.ClusterExchange;

/** Opens the cluster requests of a tool call on the cluster its {@code cluster} argument names. */
final class Clusters {
    private final ClusterExchange exchange;
    private final AccountTools accounts;
    private final DiscoveryCache discovery = new DiscoveryCache();

    Clusters(ClusterExchange exchange, AccountTools accounts) {
        this.exchange = requireNonNull(exchange, "exchange is null");
        this.accounts = requireNonNull(accounts, "accounts is null");
    }

    ClusterCalls calls(ToolCall call) throws ToolError {
        return new ClusterCalls(exchange, call.agent(), call.name(),
                accounts.reachable(call.agent(), call.arguments().need(Catalogue.CLUSTER)), call.client(), discovery);
    }
}
