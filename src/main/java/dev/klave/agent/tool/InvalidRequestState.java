package dev.klave.agent.tool;

import java.util.Map;

/**
 * A {@code requestState} that fails its integrity check, was issued to another principal or for
 * other arguments, or has expired: refused as a protocol error (invalid params), never read.
 */
public final class InvalidRequestState extends ToolError {
    InvalidRequestState() {
        super("invalid_request_state", "requestState is not valid for this call", Map.of());
    }
}
