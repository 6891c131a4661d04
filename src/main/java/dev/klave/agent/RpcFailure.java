package dev.klave.agent;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A JSON-RPC error answer and the HTTP status it goes with. Errors found before a method runs
 * (a batch, a bad envelope, a header mismatch, an unsupported revision) are 400; an unknown method
 * of 2026-07-28 is 404; errors of a method that ran are in-band, with 200.
 */
final class RpcFailure extends Exception {
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /** 2026-07-28: {@code MCP-Protocol-Version} (or {@code Mcp-Method}, {@code Mcp-Name}) missing or disagreeing with the body. */
    static final int HEADER_MISMATCH = -32020;
    /** 2026-07-28: a capability the request needs was not declared in {@code clientCapabilities}. */
    static final int MISSING_CLIENT_CAPABILITY = -32021;
    /** 2026-07-28: the request names a revision this server does not speak. */
    static final int UNSUPPORTED_VERSION = -32022;

    private final int status;
    private final int code;
    private final transient Optional<JsonNode> data;

    RpcFailure(int status, int code, String message) {
        this(status, code, message, Optional.empty());
    }

    RpcFailure(int status, int code, String message, Optional<JsonNode> data) {
        super(requireNonNull(message, "message is null"), null, false, false);
        this.status = status;
        this.code = code;
        this.data = requireNonNull(data, "data is null");
    }

    int status() {
        return status;
    }

    int code() {
        return code;
    }

    Optional<JsonNode> data() {
        return data;
    }
}
