package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.agent.tool.Agent;
import dev.klave.cluster.ClusterId;
import dev.klave.gateway.Call;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.Call.Intent;
import dev.klave.kube.ClusterPath;
import dev.klave.gateway.Exchanged;
import dev.klave.gateway.CallChain;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Map;

/**
 * The cluster requests of one tool call, each through the cluster gateway (spec 3 §1 2): admitted
 * with the agent's own token, audited as a row carrying the tool (and the session) before it
 * leaves, impersonating the agent, cut with its credential. A refusal of Klave's and an answer of
 * the cluster's 4xx/5xx become the tool's error results (spec 3 §7 "Tool results").
 */
final class ClusterCalls {
    static final String JSON = "application/json";
    static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

    private final ClusterExchange exchange;
    private final Agent agent;
    private final ToolName tool;
    private final ClusterId cluster;
    private final InetAddress client;
    private final DiscoveryCache discovery;

    ClusterCalls(ClusterExchange exchange, Agent agent, ToolName tool, ClusterId cluster, InetAddress client,
            DiscoveryCache discovery) {
        this.discovery = requireNonNull(discovery, "discovery is null");
        this.exchange = requireNonNull(exchange, "exchange is null");
        this.agent = requireNonNull(agent, "agent is null");
        this.tool = requireNonNull(tool, "tool is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.client = requireNonNull(client, "client is null");
    }

    ClusterId cluster() {
        return cluster;
    }

    /** What this cluster's discovery documents listed last, with their entity tags. */
    DiscoveryCache discovery() {
        return discovery;
    }

    /** A successful answer; anything else is thrown as the tool's error result. */
    Exchanged.Answered send(Method method, ClusterPath path, Map<String, String> query,
            ClusterExchange.Outgoing outgoing) throws ToolError, ClusterRefusal, InterruptedException {
        Exchanged.Answered answered = answer(method, path, query, outgoing);
        if (answered.status() >= 400) {
            throw ClusterRefusal.of(answered);
        }
        return answered;
    }

    /** Any answer of the cluster, successful or not; Klave's refusals and failures are thrown. */
    Exchanged.Answered answer(Method method, ClusterPath path, Map<String, String> query,
            ClusterExchange.Outgoing outgoing) throws ToolError, InterruptedException {
        return answer(method, path, query(query), outgoing, Intent.ACT);
    }

    /**
     * The same, with a typed query (a planned or held write's).
     *
     * @param intent a preview is sent only with {@code dryRun=All} on the wire
     */
    Exchanged.Answered answer(Method method, ClusterPath path, Query query, ClusterExchange.Outgoing outgoing,
            Intent intent) throws ToolError, InterruptedException {
        if (Thread.interrupted()) {
            // The client left (spec 3 §4): nothing more is sent for it.
            throw new InterruptedException("the client left");
        }
        Call call = Call.meant(intent, cluster, method, path, query, client, agent.channel(tool.wire()));
        Exchanged exchanged = exchange.exchange(agent.bearer(), call, outgoing);
        return switch (exchanged) {
            case Exchanged.Answered answered -> answered;
            case Exchanged.Refused refused -> throw new ToolError(refused.refusal().kind().code(),
                    refused.refusal().getMessage() + " (audit id " + refused.auditId() + ")",
                    Map.of("audit_id", refused.auditId()));
            case Exchanged.Failed failed -> throw ToolError.of(Message.AGENT_CLUSTER_UNREACHABLE,
                    Map.of("error", failed.text() + " (audit id " + failed.auditId() + ")"));
        };
    }

    /**
     * Holds the agent's wait for a person on this cluster among the open calls: a revocation, a
     * grant that ends or shutdown cuts it as it cuts a call.
     *
     * @throws ToolError when the agent may not act on the cluster any more
     */
    CallChain.Held hold() throws ToolError {
        try {
            return exchange.hold(agent.bearer(), cluster);
        } catch (dev.klave.messages.Refusal refusal) {
            throw new ToolError(refusal.kind().code(), refusal.getMessage(), Map.of());
        }
    }

    JsonNode getJson(ClusterPath path, Map<String, String> query)
            throws ToolError, ClusterRefusal, InterruptedException {
        return json(send(Method.GET, path, query, ClusterExchange.Outgoing.NONE));
    }

    static JsonNode json(Exchanged.Answered answered) throws ToolError {
        try {
            return Yaml.MAPPER.readTree(answered.body());
        } catch (IOException e) {
            throw ToolError.of(Message.AGENT_CLUSTER_UNREACHABLE,
                    Map.of("error", Text.CLUSTER_ANSWER_NOT_JSON_AUDITED.text(answered.auditId())));
        }
    }

    private static Query query(Map<String, String> pairs) {
        Query query = Query.NONE;
        for (Map.Entry<String, String> pair : pairs.entrySet()) {
            query = query.with(pair.getKey(), pair.getValue());
        }
        return query;
    }
}
