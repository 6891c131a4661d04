package dev.klave.agent.tool;

import dev.klave.audit.AuditStore;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.access.Authority;
import dev.klave.agent.approval.AccessRequests;
import dev.klave.agent.approval.Approvals;
import dev.klave.cluster.ClusterStore;
import dev.klave.config.BaseUrl;
import dev.klave.crypto.Hmac;
import dev.klave.crypto.Sealer;
import dev.klave.gateway.ClusterExchange;
import dev.klave.messages.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.net.InetAddress;
import java.util.Optional;

/**
 * The tools, as data (spec 3 §4 "Tools"), and the one way to call them: arguments checked against
 * the tool's parameters, then its handler; a refusal of Klave's or of the cluster's is an error
 * result, never a protocol error.
 */
public final class Toolbox {
    private final Map<ToolName, Tool> tools = new EnumMap<>(ToolName.class);
    private final Prompts prompts;

    public Toolbox(ClusterExchange exchange, Authority authority, ClusterStore clusters, Approvals approvals,
            AccessRequests accessRequests, BaseUrl baseUrl, Hmac stateKey,
            Sealer heldBodies,
            HeldWrites.AgentCheck stillValid, Duration approvalWait, LookalikeCredentials credentials,
            AuditStore audit, Clock clock) {
        AccountTools account = new AccountTools(authority, clusters, accessRequests, baseUrl);
        Clusters onClusters = new Clusters(exchange, account);
        ReadTools read = new ReadTools(onClusters, credentials);
        HeldWrites held = new HeldWrites(approvals, accessRequests, new RequestStates(stateKey, clock,
                Approvals.LIFETIME), heldBodies, stillValid, baseUrl, approvalWait, clock);
        WriteTools write = new WriteTools(onClusters, held, credentials, clock);
        this.prompts = new Prompts(audit);
        for (Tool tool : Catalogue.tools(account, read, new Describe(onClusters, credentials), new Top(onClusters),
                write,
                new OwnCalls(audit))) {
            tools.put(tool.name(), tool);
        }
        if (tools.size() != ToolName.values().length) {
            throw new IllegalStateException("a tool has no entry in the catalogue");
        }
    }

    /** The prompts (issue 43), offered beside the tools. */
    public Prompts prompts() {
        return prompts;
    }

    /** Every tool, in a stable order (MCP 2026-07-28: the same order on every {@code tools/list}). */
    public List<Tool> list() {
        return List.copyOf(tools.values());
    }

    public Optional<Tool> find(String name) {
        return ToolName.named(name).map(tools::get);
    }

    /** The {@code tools} of a {@code tools/list} answer. */
    public ArrayNode describe() {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (Tool tool : tools.values()) {
            ObjectNode entry = list.addObject();
            entry.put("name", tool.name().wire());
            entry.put("description", tool.description());
            ObjectNode schema = entry.putObject("inputSchema");
            schema.put("type", "object");
            ObjectNode properties = schema.putObject("properties");
            ArrayNode required = JsonNodeFactory.instance.arrayNode();
            for (Parameter<?> parameter : tool.parameters()) {
                properties.set(parameter.name(), parameter.schema());
                if (parameter.required()) {
                    required.add(parameter.name());
                }
            }
            if (!required.isEmpty()) {
                schema.set("required", required);
            }
            schema.put("additionalProperties", false);
            ObjectNode annotations = entry.putObject("annotations");
            annotations.put("readOnlyHint", tool.annotations().readOnly());
            annotations.put("destructiveHint", tool.annotations().destructive());
            annotations.put("idempotentHint", tool.annotations().idempotent());
        }
        return list;
    }

    /**
     * Checks the arguments, then runs the tool.
     *
     * @throws InterruptedException the client left, or the replica is stopping
     * @throws InvalidRequestState a retry's {@code requestState} is forged, moved or expired
     */
    public ToolResult call(Tool tool, JsonNode arguments, Invocation invocation)
            throws InterruptedException, InvalidRequestState {
        try {
            Arguments checked = Arguments.check(arguments, tool.parameters());
            return tool.handler().run(new ToolCall(invocation.agent(), tool.name(), checked, invocation.client(),
                    invocation.urlElicitation(), invocation.requestState(), invocation.inputResponses()));
        } catch (InvalidRequestState invalid) {
            throw invalid;
        } catch (ToolError error) {
            return failed(error);
        } catch (Refusal refusal) {
            // A rule of Klave's met deeper down (a path segment, say): still the tool's result,
            // never an HTTP error (spec 3 §7 "Tool results").
            return failed(new ToolError(refusal.kind().code(), refusal.getMessage(), Map.of()));
        } catch (ClusterRefusal refusal) {
            ObjectNode structured = JsonNodeFactory.instance.objectNode();
            structured.put("status", refusal.status()).put("reason", refusal.reason())
                    .put("message", refusal.getMessage()).put("audit_id", refusal.auditId());
            return ToolResult.Done.failed(refusal.text(), Optional.of(structured));
        }
    }

    /** Spec 3 §7: {@code <code>: <message>} and {@code {code, params, error}}. */
    static ToolResult failed(ToolError error) {
        ObjectNode structured = JsonNodeFactory.instance.objectNode();
        structured.put("code", error.code());
        structured.set("params", Yaml.MAPPER.valueToTree(error.params()));
        structured.put("error", error.getMessage());
        return ToolResult.Done.failed(error.code() + ": " + error.getMessage(), Optional.of(structured));
    }

    /** Who calls and how, besides the tool and its arguments. */
    public record Invocation(Agent agent, InetAddress client, boolean urlElicitation,
            Optional<String> requestState, Optional<JsonNode> inputResponses) {
        public Invocation {
            requireNonNull(agent, "agent is null");
            requireNonNull(client, "client is null");
            requireNonNull(requestState, "requestState is null");
            requireNonNull(inputResponses, "inputResponses is null");
        }
    }
}
