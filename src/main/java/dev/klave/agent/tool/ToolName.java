package dev.klave.agent.tool;

import java.util.Optional;

/** The closed set of tools (spec 3 §4 "Tools"), in the order {@code tools/list} gives them. */
public enum ToolName {
    WHOAMI("whoami"),
    LIST_CLUSTERS("list_clusters"),
    LIST_API_RESOURCES("list_api_resources"),
    LIST_RESOURCES("list_resources"),
    GET_RESOURCE("get_resource"),
    DESCRIBE("describe"),
    GET_EVENTS("get_events"),
    GET_LOGS("get_logs"),
    TOP("top"),
    READ_SECRET("read_secret"),
    APPLY("apply"),
    PATCH("patch"),
    DELETE_RESOURCE("delete_resource"),
    SCALE("scale"),
    ROLLOUT_RESTART("rollout_restart"),
    REQUEST_ACCESS("request_access"),
    RECENT_CALLS("recent_calls");

    private final String wire;

    ToolName(String wire) {
        this.wire = wire;
    }

    /** The name clients call it by, and the audit row's {@code tool}. */
    public String wire() {
        return wire;
    }

    public static Optional<ToolName> named(String text) {
        for (ToolName name : values()) {
            if (name.wire.equals(text)) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }
}
