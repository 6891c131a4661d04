package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.agent.tool.Agent;
import java.net.InetAddress;
import java.util.Optional;

/**
 * One {@code tools/call}: who calls, which tool with what arguments, from where, and what the
 * client can do in a multi round-trip (2026-07-28).
 *
 * @param urlElicitation the client declared {@code elicitation.url} at MCP 2026-07-28
 * @param requestState the {@code requestState} a retry echoes
 * @param inputResponses the answers a retry carries, by input request key
 */
public record ToolCall(Agent agent, ToolName name, Arguments arguments, InetAddress client, boolean urlElicitation,
        Optional<String> requestState, Optional<JsonNode> inputResponses) {
    public ToolCall {
        requireNonNull(agent, "agent is null");
        requireNonNull(name, "name is null");
        requireNonNull(arguments, "arguments is null");
        requireNonNull(client, "client is null");
        requireNonNull(requestState, "requestState is null");
        requireNonNull(inputResponses, "inputResponses is null");
    }
}
