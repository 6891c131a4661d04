package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** What a tool call answers. */
public sealed interface ToolResult {
    /**
     * A finished call: text for the model, whether it is an error result, and optionally the same
     * facts as structured content.
     */
    record Done(String text, boolean error, Optional<JsonNode> structured) implements ToolResult {
        public Done {
            requireNonNull(text, "text is null");
            requireNonNull(structured, "structured is null");
        }

        public static Done text(String text) {
            return new Done(text, false, Optional.empty());
        }
    }

    /**
     * MCP 2026-07-28 multi round-trip: the client must have a person open {@code url} and then
     * repeat the call with {@code requestState} (spec 3 §4 "Write approval flow" 2).
     */
    record InputRequired(String key, String message, String url, String requestState) implements ToolResult {
        public InputRequired {
            requireNonNull(key, "key is null");
            requireNonNull(message, "message is null");
            requireNonNull(url, "url is null");
            requireNonNull(requestState, "requestState is null");
        }
    }
}
