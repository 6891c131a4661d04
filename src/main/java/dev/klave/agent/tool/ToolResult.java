package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** What a tool call answers. */
public sealed interface ToolResult {
    /**
     * A finished call: text for the model, how it went, and optionally the same facts as
     * structured content.
     */
    record Done(String text, Outcome outcome, Optional<JsonNode> structured) implements ToolResult {
        public Done {
            requireNonNull(text, "text is null");
            requireNonNull(outcome, "outcome is null");
            requireNonNull(structured, "structured is null");
        }

        /** What the tool was asked for, as text only. */
        public static Done text(String text) {
            return new Done(text, Outcome.SUCCEEDED, Optional.empty());
        }

        /** What the tool was asked for, as text and structured content. */
        public static Done of(String text, JsonNode structured) {
            return new Done(text, Outcome.SUCCEEDED, Optional.of(structured));
        }

        /**
         * A tool error result (MCP "Tools": {@code isError}): the model reads why, the call itself
         * was answered.
         */
        public static Done failed(String text, Optional<JsonNode> structured) {
            return new Done(text, Outcome.FAILED, structured);
        }

        /** Whether this is an error result ({@code isError}). */
        public boolean error() {
            return outcome == Outcome.FAILED;
        }
    }

    /** How a finished tool call went. */
    enum Outcome {
        SUCCEEDED, FAILED
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
