package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tool's own refusal (spec 3 §7 "Tool results"): an error result whose text is
 * {@code <code>: <message>} and whose structured part is {@code {code, params, error}}.
 */
public class ToolError extends Exception {
    private final String code;
    private final transient Map<String, Object> params;

    public ToolError(String code, String message, Map<String, Object> params) {
        super(requireNonNull(message, "message is null"), null, false, false);
        this.code = requireNonNull(code, "code is null");
        this.params = new LinkedHashMap<>(requireNonNull(params, "params is null"));
    }

    /** A catalogue message whose {@code %s} parts are the params' values, in order. */
    public static ToolError of(Message message, Map<String, Object> params) {
        return new ToolError(message.code(), message.text(params.values().toArray()), params);
    }

    public static ToolError of(Message message) {
        return of(message, Map.of());
    }

    /** An argument the tool cannot use, named, with why. */
    public static ToolError argument(String name, String why) {
        return new ToolError(Message.AGENT_ARGUMENT_INVALID.code(), Message.AGENT_ARGUMENT_INVALID.text(name, why),
                Map.of("name", name));
    }

    /** An argument the tool cannot use, named, with the catalogue's reason. */
    public static ToolError argument(String name, Text why, Object... parts) {
        return argument(name, why.text(parts));
    }

    public String code() {
        return code;
    }

    public Map<String, Object> params() {
        return Map.copyOf(params);
    }
}
