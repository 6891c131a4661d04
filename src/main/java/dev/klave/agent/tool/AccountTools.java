package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.access.Grant;
import dev.klave.access.Authority;
import dev.klave.access.KubernetesIdentity;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.agent.approval.RequestPages;
import dev.klave.agent.approval.AccessRequest;
import dev.klave.agent.approval.AccessRequests;
import dev.klave.agent.approval.Actor;
import dev.klave.agent.tool.Agent;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.cluster.ClusterStore;
import dev.klave.config.BaseUrl;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Text;
import dev.klave.access.Permission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tools that reach no cluster and leave no audit row (spec 3 "Tool rules" 3): {@code whoami},
 * {@code list_clusters} and {@code request_access}.
 */
final class AccountTools {
    private final Authority authority;
    private final ClusterStore clusters;
    private final AccessRequests accessRequests;
    private final BaseUrl baseUrl;

    AccountTools(Authority authority, ClusterStore clusters, AccessRequests accessRequests, BaseUrl baseUrl) {
        this.authority = requireNonNull(authority, "authority is null");
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.accessRequests = requireNonNull(accessRequests, "accessRequests is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
    }

    static Actor actor(Agent agent) {
        // A delegated agent's credential stands for its session: the session names it, no credential does.
        return new Actor(agent.account().id(), agent.credentialId(), agent.session());
    }

    /**
     * The grants the agent acts under now, as the gateway admits by them (the {@link Authority}'s
     * reach of its bearer), one per cluster, scope and role.
     */
    List<Grant> inForce(Agent agent) {
        List<Grant> active = authority.everywhere(agent.bearer().acting());
        Map<String, Grant> unique = new TreeMap<>();
        for (Grant grant : active) {
            unique.merge(grant.clusterId().value() + " " + grant.scope() + " " + grant.tier().code(), grant,
                    AccountTools::longer);
        }
        return List.copyOf(unique.values());
    }

    private static Grant longer(Grant first, Grant second) {
        if (first.expiresAt().isEmpty()) {
            return first;
        }
        if (second.expiresAt().isEmpty()) {
            return second;
        }
        return first.expiresAt().get().isAfter(second.expiresAt().get()) ? first : second;
    }

    ToolResult whoami(ToolCall call) {
        Agent agent = call.agent();
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        String user = KubernetesIdentity.userName(agent.account());
        out.put("identity", user);
        out.put("mode", agent.delegated() ? "delegated" : "bot");
        out.put("account", agent.account().login().value());
        if (agent.delegated()) {
            out.put("acting_for", agent.account().login().value());
        } else {
            out.putNull("acting_for");
        }
        out.put("credential_expires_at", agent.bearer().expiresAt().toString());
        agent.session().ifPresentOrElse(id -> out.put("session", id), () -> out.putNull("session"));
        agent.sessionExpiresAt().ifPresentOrElse(at -> out.put("session_expires_at", at.toString()),
                () -> out.putNull("session_expires_at"));
        out.put("writes_need_approval", agent.writesNeedApproval());
        ArrayNode permissions = out.putArray("permissions");
        StringBuilder text = new StringBuilder();
        text.append("identity: ").append(user).append(agent.delegated() ? " (delegated agent of "
                + agent.account().login().value() + ")" : " (bot credential)").append('\n');
        text.append("credential expires at: ").append(agent.bearer().expiresAt()).append('\n');
        agent.sessionExpiresAt().ifPresent(at -> text.append("session expires at: ").append(at).append('\n'));
        text.append("writes need a person's approval: ").append(agent.writesNeedApproval() ? "yes" : "no")
                .append('\n');
        List<Grant> inForce = inForce(agent);
        text.append(inForce.isEmpty() ? "permissions in force: none\n" : "permissions in force:\n");
        for (Grant grant : inForce) {
            ObjectNode permission = permissions.addObject();
            permission.put("cluster", grant.clusterId().value());
            permission.put("role", grant.tier().code());
            permission.put("scope", grant.scope().value());
            grant.expiresAt().ifPresentOrElse(at -> permission.put("expires_at", at.toString()),
                    () -> permission.putNull("expires_at"));
            text.append("- cluster ").append(grant.clusterId().value()).append(": ").append(grant.tier().code())
                    .append(grant.scope().wholeCluster() ? " on the whole cluster" : " in namespace "
                            + grant.scope().value())
                    .append(grant.expiresAt().map(at -> ", until " + at).orElse(", no expiry")).append('\n');
        }
        return ToolResult.Done.of(text.toString().strip(), out);
    }

    ToolResult listClusters(ToolCall call) {
        Map<ClusterId, Cluster> reachable = new TreeMap<>(Comparator.comparing(ClusterId::value));
        for (Grant grant : inForce(call.agent())) {
            clusters.findById(grant.clusterId()).ifPresent(cluster -> reachable.put(cluster.id(), cluster));
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ArrayNode list = out.putArray("clusters");
        StringBuilder text = new StringBuilder(reachable.isEmpty()
                ? "No cluster: this agent has no permission in force anywhere (ask with request_access)."
                : "Clusters (pass the name as `cluster`):\n");
        for (Cluster cluster : reachable.values()) {
            list.addObject().put("name", cluster.id().value()).put("display_name", cluster.name());
            text.append("- ").append(cluster.id().value()).append(" (").append(cluster.name()).append(")\n");
        }
        return ToolResult.Done.of(text.toString().strip(), out);
    }

    /** The cluster a tool names, among those the agent holds a permission on (by id, or by its name). */
    ClusterId reachable(Agent agent, String name) throws ToolError {
        for (Grant grant : inForce(agent)) {
            if (grant.clusterId().value().equals(name)) {
                return grant.clusterId();
            }
        }
        List<ClusterId> named = new ArrayList<>();
        for (Grant grant : inForce(agent)) {
            clusters.findById(grant.clusterId()).filter(cluster -> cluster.name().equals(name))
                    .ifPresent(cluster -> named.add(cluster.id()));
        }
        if (named.stream().distinct().count() == 1) {
            return named.get(0);
        }
        throw ToolError.of(Message.AGENT_CLUSTER_UNKNOWN, Map.of("cluster", name));
    }

    ToolResult requestAccess(ToolCall call) throws ToolError {
        Arguments arguments = call.arguments();
        String clusterName = arguments.need(Catalogue.CLUSTER);
        Cluster cluster = clusters.findById(clusterId(clusterName))
                .orElseThrow(() -> ToolError.of(Message.AGENT_CLUSTER_UNKNOWN, Map.of("cluster", clusterName)));
        Tier role = Tier.fromCode(arguments.need(Catalogue.ROLE)).orElseThrow(() -> ToolError.argument(
                Catalogue.ROLE.name(), Text.ARGUMENT_ROLE));
        if (!Authority.delegable(role)) {
            // Spec 3 §5 4: cluster-admin is beyond every agent's ceiling.
            throw ToolError.of(Message.AGENT_ACCESS_BEYOND_CEILING);
        }
        Scope scope;
        try {
            scope = new Scope(arguments.need(Catalogue.ACCESS_SCOPE));
        } catch (Refusal refusal) {
            throw ToolError.argument(Catalogue.ACCESS_SCOPE.name(), Text.ARGUMENT_SCOPE);
        }
        long minutes = arguments.need(Catalogue.MINUTES);
        String reason = arguments.need(Catalogue.REASON);
        Agent agent = call.agent();
        if (agent.delegated() && !authority.within(agent.account().id(), new Permission(cluster.id(), role, scope))) {
            // Spec 3 §5 4: a delegated agent's ceiling is its person's own permissions there.
            throw ToolError.of(Message.AGENT_ACCESS_BEYOND_CEILING);
        }
        AccessRequest request;
        try {
            // The person a delegated agent acts for decides its requests (issue 31 item 5).
            request = accessRequests.request(actor(agent), agent.decider(), cluster.id(), scope, role,
                    (int) minutes, reason);
        } catch (Refusal refusal) {
            throw new ToolError(refusal.kind().code(), refusal.getMessage(), Map.of());
        }
        String url = RequestPages.decide(baseUrl, request.id());
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("id", request.id()).put("url", url).put("status", request.status().code())
                .put("expires_at", request.expiresAt().toString());
        return ToolResult.Done.of("Access request " + request.id() + " sent: " + role.code() + " "
                + (scope.wholeCluster() ? "on the whole cluster" : "in namespace " + scope.value()) + " of "
                + cluster.id().value() + " for " + minutes + " minutes.\nGive the person this link to decide: " + url
                + "\nThis does not wait: call whoami later; an approved request shows there as a permission.",
                out);
    }

    private static ClusterId clusterId(String name) throws ToolError {
        try {
            return new ClusterId(name);
        } catch (RuntimeException e) {
            throw ToolError.of(Message.AGENT_CLUSTER_UNKNOWN, Map.of("cluster", name));
        }
    }
}
