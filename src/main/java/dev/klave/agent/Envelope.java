package dev.klave.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.http.ApiRequest;
import java.util.Optional;

/**
 * Which revision a message speaks, and its checks (MCP 2026-07-28 "Versioning" and the Streamable
 * HTTP headers): the body decides — a {@code _meta} naming a protocol version is 2026-07-28 — and
 * the {@code MCP-Protocol-Version} header must agree with it (else -32020, 400). A version this
 * server does not speak is -32022 (400) naming the ones it does; a 2026-07-28 request without a
 * well-formed {@code _meta} is -32602 (400). A request without {@code _meta} and without a
 * 2026-07-28 header is 2025-11-25, whose header, when sent, must name a dated revision (400).
 *
 * @param capabilities the client's declared capabilities (2026-07-28; empty for 2025-11-25)
 */
record Envelope(Revision revision, ObjectNode capabilities) {
    static Envelope read(JsonNode message, ApiRequest request) throws RpcFailure {
        boolean notification = !message.has("id");
        String method = message.path("method").asText();
        JsonNode meta = message.path("params").path("_meta");
        Optional<String> header = request.header(McpEndpoint.VERSION_HEADER).map(String::strip);
        boolean claims = meta.isObject() && meta.has(McpEndpoint.VERSION_KEY);
        // A routing header says what the body does, whichever revision: one that disagrees is
        // refused, so a front end that routes or filters by it cannot be told one thing while the
        // body does another.
        routingHeaders(message, request, method);
        if (!claims) {
            if (header.isPresent() && header.get().equals(Revision.STATELESS.version())) {
                throw new RpcFailure(400, RpcFailure.INVALID_PARAMS, "a " + Revision.STATELESS.version()
                        + " request carries _meta with " + McpEndpoint.VERSION_KEY + " and " + McpEndpoint.CAPABILITIES_KEY);
            }
            if (header.isPresent() && !Revision.legacyHeader(header.get())) {
                throw unsupported(header.get());
            }
            return new Envelope(Revision.LEGACY, JsonNodeFactory.instance.objectNode());
        }
        JsonNode claimed = meta.get(McpEndpoint.VERSION_KEY);
        if (!claimed.isTextual()) {
            throw new RpcFailure(400, RpcFailure.INVALID_PARAMS, McpEndpoint.VERSION_KEY + " must be a string");
        }
        if (header.isPresent() && !header.get().equals(claimed.asText())) {
            throw new RpcFailure(400, RpcFailure.HEADER_MISMATCH, "the " + McpEndpoint.VERSION_HEADER
                    + " header does not match _meta's " + McpEndpoint.VERSION_KEY);
        }
        if (!claimed.asText().equals(Revision.STATELESS.version())) {
            throw unsupported(claimed.asText());
        }
        JsonNode capabilities = meta.get(McpEndpoint.CAPABILITIES_KEY);
        if (capabilities == null || !capabilities.isObject()) {
            throw new RpcFailure(400, RpcFailure.INVALID_PARAMS, "_meta lacks " + McpEndpoint.CAPABILITIES_KEY);
        }
        if (!notification) {
            if (header.isEmpty()) {
                throw new RpcFailure(400, RpcFailure.HEADER_MISMATCH, "the " + McpEndpoint.VERSION_HEADER
                        + " header is required");
            }
            Optional<String> methodHeader = request.header("Mcp-Method").map(String::strip);
            if (methodHeader.isEmpty() || !methodHeader.get().equals(method)) {
                throw new RpcFailure(400, RpcFailure.HEADER_MISMATCH, "the Mcp-Method header must name the method");
            }
            Optional<String> nameHeader = request.header("Mcp-Name").map(String::strip);
            if (method.equals("tools/call")) {
                String name = message.path("params").path("name").asText("");
                if (nameHeader.isEmpty() || !nameHeader.get().equals(name)) {
                    throw new RpcFailure(400, RpcFailure.HEADER_MISMATCH, "the Mcp-Name header must name the tool");
                }
            }
        }
        return new Envelope(Revision.STATELESS, (ObjectNode) capabilities);
    }

    /** {@code Mcp-Method}, when sent, names the method; {@code Mcp-Name}, when sent, the tool (or prompt, or resource). */
    private static void routingHeaders(JsonNode message, ApiRequest request, String method) throws RpcFailure {
        Optional<String> methodHeader = request.header("Mcp-Method").map(String::strip);
        if (methodHeader.isPresent() && !methodHeader.get().equals(method)) {
            throw new RpcFailure(400, RpcFailure.HEADER_MISMATCH, "the Mcp-Method header must name the method");
        }
        Optional<String> nameHeader = request.header("Mcp-Name").map(String::strip);
        if (nameHeader.isEmpty()) {
            return;
        }
        JsonNode params = message.path("params");
        String named = switch (method) {
            case "tools/call", "prompts/get" -> params.path("name").asText("");
            case "resources/read" -> params.path("uri").asText("");
            default -> null;
        };
        if (named == null || !nameHeader.get().equals(named)) {
            throw new RpcFailure(400, RpcFailure.HEADER_MISMATCH, "the Mcp-Name header must name what the body calls");
        }
    }

    private static RpcFailure unsupported(String requested) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        Revision.supported().forEach(data.putArray("supported")::add);
        data.put("requested", requested);
        return new RpcFailure(400, RpcFailure.UNSUPPORTED_VERSION, "unsupported protocol version: " + requested,
                Optional.of(data));
    }

    /** Whether the client declared URL-mode elicitation ({@code elicitation.url}). */
    boolean urlElicitation() {
        return revision == Revision.STATELESS && capabilities.path("elicitation").path("url").isObject();
    }
}
