package dev.klave.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.agent.tool.Agent;
import dev.klave.agent.tool.InvalidRequestState;
import dev.klave.agent.tool.Tool;
import dev.klave.agent.tool.ToolResult;
import dev.klave.agent.tool.Toolbox;
import dev.klave.http.ApiRequest;
import java.util.Optional;

/**
 * The methods of MCP 2026-07-28: {@code server/discover}, {@code tools/list}, {@code tools/call},
 * each result with its {@code resultType}. Anything else — including the handshake and
 * {@code ping} this revision removed — is -32601 with 404.
 */
final class Stateless {
    /** How long a client may keep the tool list: it changes only with a new Klave version. */
    private static final long LIST_TTL_MS = 3_600_000;

    private Stateless() {}

    static Reply dispatch(String method, JsonNode params, Envelope envelope, Agent agent, ApiRequest request,
            Toolbox tools) throws RpcFailure, InterruptedException {
        if (method.equals("tools/call")) {
            return call(params, envelope, agent, request, tools);
        }
        return Reply.of(switch (method) {
            case "server/discover" -> discover();
            case "tools/list" -> {
                ObjectNode result = complete();
                result.set("tools", tools.describe());
                result.put("ttlMs", LIST_TTL_MS);
                result.put("cacheScope", "public");
                yield result;
            }
            case "prompts/list" -> {
                ObjectNode result = complete();
                result.set("prompts", tools.prompts().describe());
                result.put("ttlMs", LIST_TTL_MS);
                result.put("cacheScope", "public");
                yield result;
            }
            case "prompts/get" -> {
                ObjectNode result = complete();
                result.setAll(McpEndpoint.prompt(tools, params, agent, 200));
                yield result;
            }
            default -> throw new RpcFailure(404, RpcFailure.METHOD_NOT_FOUND, "method not found: " + method);
        });
    }

    static ObjectNode discover() {
        ObjectNode result = complete();
        Revision.supported().forEach(result.putArray("supportedVersions")::add);
        result.set("capabilities", McpEndpoint.capabilities());
        result.set("serverInfo", Legacy.serverInfo());
        result.put("instructions", Instructions.TEXT);
        result.put("ttlMs", LIST_TTL_MS);
        result.put("cacheScope", "public");
        result.putObject("_meta").set("io.modelcontextprotocol/serverInfo", Legacy.serverInfo());
        return result;
    }

    private static Reply call(JsonNode params, Envelope envelope, Agent agent, ApiRequest request, Toolbox tools)
            throws RpcFailure, InterruptedException {
        Tool tool = McpEndpoint.tool(tools, params).orElseThrow();
        JsonNode state = params.get("requestState");
        if (state != null && !state.isTextual()) {
            throw new RpcFailure(200, RpcFailure.INVALID_PARAMS, "requestState must be a string");
        }
        JsonNode responses = params.get("inputResponses");
        if (responses != null && !responses.isObject()) {
            throw new RpcFailure(200, RpcFailure.INVALID_PARAMS, "inputResponses must be an object");
        }
        if (state != null && !envelope.urlElicitation()) {
            // Resuming a URL elicitation needs the capability the first round relied on.
            ObjectNode data = JsonNodeFactory.instance.objectNode();
            data.putObject("requiredCapabilities").putObject("elicitation").putObject("url");
            throw new RpcFailure(400, RpcFailure.MISSING_CLIENT_CAPABILITY,
                    "this call resumes a URL elicitation: declare elicitation.url", Optional.of(data));
        }
        ToolResult result;
        try {
            result = tools.call(tool, params.get("arguments"), new Toolbox.Invocation(agent, request.clientAddress(),
                    envelope.urlElicitation(), Optional.ofNullable(state).map(JsonNode::asText),
                    Optional.ofNullable(responses)));
        } catch (InvalidRequestState invalid) {
            throw new RpcFailure(200, RpcFailure.INVALID_PARAMS, invalid.getMessage());
        }
        return Reply.tool(result, Revision.STATELESS);
    }

    private static ObjectNode complete() {
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.put("resultType", "complete");
        return result;
    }
}
