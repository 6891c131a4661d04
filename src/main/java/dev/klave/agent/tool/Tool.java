package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A tool as data (spec 3 §4 "Tools"): its name, what it does, its parameters (which are its input
 * schema and the checks of its arguments), its annotations, and the code that runs it.
 */
public record Tool(ToolName name, String description, List<Parameter<?>> parameters, Annotations annotations,
        Handler handler) {
    /** Spec 3 "Tool rules" 1. MCP reads a missing destructiveHint as true, so it is always written. */
    public record Annotations(boolean readOnly, boolean destructive, boolean idempotent) {
        public static final Annotations READ = new Annotations(true, false, true);
    }

    @FunctionalInterface
    public interface Handler {
        ToolResult run(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException;
    }

    public Tool {
        requireNonNull(name, "name is null");
        requireNonNull(description, "description is null");
        parameters = List.copyOf(parameters);
        requireNonNull(annotations, "annotations is null");
        requireNonNull(handler, "handler is null");
    }
}
