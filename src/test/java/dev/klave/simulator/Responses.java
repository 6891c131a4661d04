package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The few ways the simulator answers: JSON bodies, Status errors, plain text. */
final class Responses {
    private Responses() {
    }

    static void json(HttpExchange exchange, int status, JsonNode body) throws IOException {
        exchange.respond(status, "application/json", Json.bytes(body));
    }

    static void status(HttpExchange exchange, ApiException error) throws IOException {
        json(exchange, error.code(), error.status());
    }

    static void text(HttpExchange exchange, int status, String body) throws IOException {
        exchange.respond(status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }
}
