package dev.klave.agent;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.agent.tool.ToolResult;

/**
 * The result of a JSON-RPC request and how it went, for the meters: typed where it is made (a
 * tool's {@link ToolResult}), never read back out of the JSON it becomes.
 */
record Reply(ObjectNode result, McpMeters.Outcome outcome) {
    Reply {
        requireNonNull(result, "result is null");
        requireNonNull(outcome, "outcome is null");
    }

    /** Any result but a tool call's: it went as asked. */
    static Reply of(ObjectNode result) {
        return new Reply(result, McpMeters.Outcome.OK);
    }

    /** The result of a {@code tools/call}, in the shape of {@code revision}. */
    static Reply tool(ToolResult result, Revision revision) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        return switch (result) {
            case ToolResult.Done done -> {
                if (revision == Revision.STATELESS) {
                    out.put("resultType", "complete");
                }
                out.putArray("content").addObject().put("type", "text").put("text", done.text());
                done.structured().ifPresent(structured -> out.set("structuredContent", structured));
                out.put("isError", done.error());
                yield new Reply(out, done.error() ? McpMeters.Outcome.TOOL_ERROR : McpMeters.Outcome.OK);
            }
            case ToolResult.InputRequired input -> {
                out.put("resultType", "input_required");
                ObjectNode elicitation = out.putObject("inputRequests").putObject(input.key());
                elicitation.put("method", "elicitation/create");
                elicitation.putObject("params").put("mode", "url").put("message", input.message())
                        .put("url", input.url());
                out.put("requestState", input.requestState());
                yield new Reply(out, McpMeters.Outcome.INPUT_REQUIRED);
            }
        };
    }
}
