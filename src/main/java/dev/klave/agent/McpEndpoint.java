package dev.klave.agent;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.agent.tool.Agent;
import dev.klave.agent.tool.Tool;
import dev.klave.agent.tool.Toolbox;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.messages.Message;
import dev.klave.storage.RateWindowStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /mcp} (spec 3 §4 "MCP endpoint"): Streamable HTTP, stateless — one JSON-RPC message
 * per POST, answered with JSON. The caller is authenticated first (401) and counted against its
 * rate (429); then the message is read as 2026-07-28 when its {@code _meta} names a protocol
 * version (or its {@code MCP-Protocol-Version} header names that revision), as 2025-11-25
 * otherwise.
 */
public final class McpEndpoint {
    static final String VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
    static final String CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    /**
     * Strict: a key given twice (which would run the last one) and anything after the message are
     * refused, as the metadata documents' parser refuses them.
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .build();
    private static final Duration RATE_SPAN = Duration.ofMinutes(1);

    private final AgentAuthenticator authenticator;
    private final RateWindowStore rates;
    private final int ratePerMinute;
    private final Toolbox tools;
    private final McpMeters meters;
    private final Clock clock;

    public McpEndpoint(AgentAuthenticator authenticator, RateWindowStore rates, int ratePerMinute, Toolbox tools,
            McpMeters meters, Clock clock) {
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
        this.rates = requireNonNull(rates, "rates is null");
        this.ratePerMinute = ratePerMinute;
        this.tools = requireNonNull(tools, "tools is null");
        this.meters = requireNonNull(meters, "meters is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public ApiResponse handle(ApiRequest request) throws InterruptedException {
        Agent agent = authenticator.authenticate(request.header("Authorization"));
        // Spec 3 §8: per credential (per session for a delegated agent), shared by every replica;
        // only calls served count, and a refused one is told when the next will be.
        Optional<Duration> wait = rates.admit(agent.rateKey(), clock.instant(), RATE_SPAN, ratePerMinute);
        if (wait.isPresent()) {
            throw Message.MCP_RATE_LIMITED.refusal().retryingAfter(wait.get());
        }
        long started = System.nanoTime();
        JsonNode id = null;
        String method = McpMeters.OTHER;
        String tool = McpMeters.NONE;
        try {
            jsonOnly(request);
            JsonNode message = parse(request.body());
            id = message.get("id");
            method = McpMeters.method(message.path("method").asText());
            if (method.equals("tools/call")) {
                tool = McpMeters.tool(message.path("params").path("name").textValue());
            }
            Answered answered = answer(agent, request, message);
            meters.ended(method, tool, answered.outcome(), started);
            return answered.response();
        } catch (RpcFailure failure) {
            meters.ended(method, tool, McpMeters.Outcome.RPC_ERROR, started);
            return error(failure, id);
        }
    }

    private record Answered(ApiResponse response, McpMeters.Outcome outcome) {}

    /** The capabilities this server declares: tools and prompts, neither changing while it runs. */
    static ObjectNode capabilities() {
        ObjectNode capabilities = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        capabilities.putObject("tools").put("listChanged", false);
        capabilities.putObject("prompts").put("listChanged", false);
        return capabilities;
    }

    /** A {@code prompts/get} result, or -32602 for a prompt or an argument it does not know (MCP "Prompts"). */
    static ObjectNode prompt(Toolbox tools, JsonNode params, Agent agent, int status) throws RpcFailure {
        String name = params == null ? "" : params.path("name").asText("");
        try {
            return tools.prompts().get(name, params == null ? null : params.get("arguments"), agent)
                    .orElseThrow(() -> new RpcFailure(status, RpcFailure.INVALID_PARAMS, "unknown prompt: " + name));
        } catch (IllegalArgumentException argument) {
            throw new RpcFailure(status, RpcFailure.INVALID_PARAMS, "argument missing or not a Kubernetes name: "
                    + argument.getMessage());
        }
    }

    private Answered answer(Agent agent, ApiRequest request, JsonNode message)
            throws RpcFailure, InterruptedException {
        if (message.has("result") || message.has("error")) {
            // This server never asks the client anything, so there is nothing a response could answer.
            throw new RpcFailure(400, RpcFailure.INVALID_REQUEST, "this server sends no requests to answer");
        }
        if (!message.path("jsonrpc").asText().equals("2.0") || !message.path("method").isTextual()
                || message.has("id") && !(message.get("id").isTextual() || message.get("id").isIntegralNumber())) {
            throw new RpcFailure(400, RpcFailure.INVALID_REQUEST, "not a JSON-RPC 2.0 request");
        }
        JsonNode params = message.get("params");
        if (params != null && !params.isObject()) {
            throw new RpcFailure(400, RpcFailure.INVALID_PARAMS, "params must be an object");
        }
        Envelope envelope = Envelope.read(message, request);
        boolean notification = !message.has("id");
        String method = message.get("method").asText();
        if (notification) {
            return new Answered(new ApiResponse(202, Optional.empty(), List.of()), McpMeters.Outcome.OK);
        }
        Reply reply = envelope.revision() == Revision.STATELESS
                ? Stateless.dispatch(method, params, envelope, agent, request, tools)
                : Legacy.dispatch(method, params, agent, request, tools);
        ObjectNode answer = JsonNodeFactory.instance.objectNode();
        answer.put("jsonrpc", "2.0");
        answer.set("id", message.get("id"));
        answer.set("result", reply.result());
        return new Answered(ApiResponse.ok(answer), reply.outcome());
    }

    /** Streamable HTTP: a message is POSTed as {@code application/json}; any other type is refused (415). */
    private static void jsonOnly(ApiRequest request) throws RpcFailure {
        String type = request.header("Content-Type").map(value -> value.split(";", 2)[0].strip()
                .toLowerCase(java.util.Locale.ROOT)).orElse("");
        if (!type.equals("application/json")) {
            throw new RpcFailure(415, RpcFailure.INVALID_REQUEST, "a message is sent as Content-Type: application/json");
        }
    }

    private static JsonNode parse(byte[] body) throws RpcFailure {
        JsonNode message;
        try {
            message = MAPPER.readTree(body);
        } catch (IOException e) {
            throw new RpcFailure(400, RpcFailure.PARSE_ERROR,
                    "the body is not one JSON message (no repeated key, nothing after it)");
        }
        if (message == null || message.isArray()) {
            // Spec 3 §4: one message per POST; a batch is refused.
            throw new RpcFailure(400, RpcFailure.INVALID_REQUEST, "batches are not supported: one message per POST");
        }
        if (!message.isObject()) {
            throw new RpcFailure(400, RpcFailure.INVALID_REQUEST, "not a JSON-RPC message");
        }
        return message;
    }

    static ApiResponse error(RpcFailure failure, JsonNode id) {
        ObjectNode answer = JsonNodeFactory.instance.objectNode();
        answer.put("jsonrpc", "2.0");
        answer.set("id", id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null);
        ObjectNode error = answer.putObject("error");
        error.put("code", failure.code());
        error.put("message", failure.getMessage());
        failure.data().ifPresent(data -> error.set("data", data));
        return new ApiResponse(failure.status(), Optional.of(answer), List.of());
    }

    static Optional<Tool> tool(Toolbox tools, JsonNode params) throws RpcFailure {
        JsonNode name = params == null ? null : params.get("name");
        if (name == null || !name.isTextual()) {
            throw new RpcFailure(200, RpcFailure.INVALID_PARAMS, "tools/call needs params.name");
        }
        Optional<Tool> tool = tools.find(name.asText());
        if (tool.isEmpty()) {
            throw new RpcFailure(200, RpcFailure.INVALID_PARAMS, "unknown tool: " + name.asText());
        }
        return tool;
    }

    static String json(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
