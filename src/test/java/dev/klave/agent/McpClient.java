package dev.klave.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.testing.TestingHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * A bare JSON-RPC client of {@code /mcp}, speaking either revision by hand — so that tests can also
 * send what a real client never would.
 */
final class McpClient {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String MODERN = "2026-07-28";
    static final String LEGACY = "2025-11-25";

    private final TestingHttp http;
    private final String token;
    private int ids;

    McpClient(TestingHttp http, String token) {
        this.http = http;
        this.token = token;
    }

    /** The HTTP answer and its JSON body. */
    record Answer(int status, JsonNode body, HttpResponse<String> response) {
        JsonNode result() {
            if (!body.has("result")) {
                throw new AssertionError("no result: " + body);
            }
            return body.get("result");
        }

        String text() {
            return result().path("content").path(0).path("text").asText();
        }

        boolean isError() {
            return result().path("isError").asBoolean();
        }

        int errorCode() {
            return body.path("error").path("code").asInt();
        }
    }

    Answer post(String body, String... headers) {
        List<String> all = new ArrayList<>(List.of("Content-Type", "application/json", "Accept",
                "application/json, text/event-stream"));
        if (token != null) {
            all.add("Authorization");
            all.add("Bearer " + token);
        }
        all.addAll(List.of(headers));
        HttpResponse<String> response = http.send("POST", "/mcp", body, all.toArray(String[]::new));
        JsonNode json;
        try {
            json = response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
        } catch (IOException e) {
            json = JSON.getNodeFactory().textNode(response.body());
        }
        return new Answer(response.statusCode(), json, response);
    }

    /** A 2025-11-25 request (no {@code _meta}; the version header as a client sends it after initialize). */
    Answer legacy(String method, ObjectNode params) {
        ObjectNode message = message(method, params);
        return post(write(message), "MCP-Protocol-Version", LEGACY);
    }

    /** A 2026-07-28 request with its {@code _meta} and headers, declaring {@code capabilities}. */
    Answer modern(String method, ObjectNode params, ObjectNode capabilities) {
        ObjectNode withMeta = params == null ? JSON.createObjectNode() : params.deepCopy();
        ObjectNode meta = withMeta.putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", MODERN);
        meta.set("io.modelcontextprotocol/clientCapabilities", capabilities);
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "test").put("version", "1");
        List<String> headers = new ArrayList<>(List.of("MCP-Protocol-Version", MODERN, "Mcp-Method", method));
        if (method.equals("tools/call")) {
            headers.add("Mcp-Name");
            headers.add(withMeta.path("name").asText());
        }
        return post(write(message(method, withMeta)), headers.toArray(String[]::new));
    }

    Answer modern(String method, ObjectNode params) {
        return modern(method, params, JSON.createObjectNode());
    }

    /** {@code tools/call} on 2025-11-25. */
    Answer call(String tool, ObjectNode arguments) {
        ObjectNode params = JSON.createObjectNode();
        params.put("name", tool);
        params.set("arguments", arguments);
        return legacy("tools/call", params);
    }

    static ObjectNode args(String... pairs) {
        ObjectNode arguments = JSON.createObjectNode();
        for (int i = 0; i < pairs.length; i += 2) {
            arguments.put(pairs[i], pairs[i + 1]);
        }
        return arguments;
    }

    private ObjectNode message(String method, ObjectNode params) {
        ObjectNode message = JSON.createObjectNode();
        message.put("jsonrpc", "2.0");
        message.put("id", ++ids);
        message.put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
