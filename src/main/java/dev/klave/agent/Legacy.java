package dev.klave.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.agent.tool.Agent;
import dev.klave.agent.tool.Tool;
import dev.klave.agent.tool.ToolResult;
import dev.klave.agent.tool.Toolbox;
import dev.klave.http.ApiRequest;
import java.util.Optional;

/**
 * The methods of MCP 2025-11-25, served statelessly: {@code initialize} answers 2025-11-25 (the
 * client decides whether it can speak it), no session is kept, and {@code tools/list} works with
 * or without a handshake before it. URL elicitation is never used on this revision (spec 3 §9).
 */
final class Legacy {
    private Legacy() {}

    static Reply dispatch(String method, JsonNode params, Agent agent, ApiRequest request, Toolbox tools)
            throws RpcFailure, InterruptedException {
        if (method.equals("tools/call")) {
            return call(params, agent, request, tools);
        }
        return Reply.of(switch (method) {
            case "initialize" -> {
                ObjectNode result = JsonNodeFactory.instance.objectNode();
                result.put("protocolVersion", Revision.LEGACY.version());
                result.set("capabilities", McpEndpoint.capabilities());
                result.set("serverInfo", serverInfo());
                result.put("instructions", Instructions.TEXT);
                yield result;
            }
            case "ping" -> JsonNodeFactory.instance.objectNode();
            case "tools/list" -> {
                ObjectNode result = JsonNodeFactory.instance.objectNode();
                result.set("tools", tools.describe());
                yield result;
            }
            case "prompts/list" -> {
                ObjectNode result = JsonNodeFactory.instance.objectNode();
                result.set("prompts", tools.prompts().describe());
                yield result;
            }
            case "prompts/get" -> McpEndpoint.prompt(tools, params, agent, 200);
            default -> throw new RpcFailure(200, RpcFailure.METHOD_NOT_FOUND, "method not found: " + method);
        });
    }

    private static Reply call(JsonNode params, Agent agent, ApiRequest request, Toolbox tools)
            throws RpcFailure, InterruptedException {
        Tool tool = McpEndpoint.tool(tools, params).orElseThrow();
        ToolResult result;
        try {
            result = tools.call(tool, params.get("arguments"), new Toolbox.Invocation(agent,
                    request.clientAddress(), false, Optional.empty(), Optional.empty()));
        } catch (dev.klave.agent.tool.InvalidRequestState never) {
            // 2025-11-25 calls carry no requestState.
            throw new RpcFailure(200, RpcFailure.INVALID_PARAMS, never.getMessage());
        }
        return Reply.tool(result, Revision.LEGACY);
    }

    static ObjectNode serverInfo() {
        ObjectNode info = JsonNodeFactory.instance.objectNode();
        info.put("name", "klave");
        info.put("title", "Klave");
        String version = Legacy.class.getPackage().getImplementationVersion();
        info.put("version", version == null ? "development" : version);
        return info;
    }
}
