package dev.klave.simulator;

import java.io.IOException;

/** Placeholder until SPDY lands. */
final class SpdyExec {
    private SpdyExec() {
    }

    static void serve(HttpExchange exchange, ExecRequest exec) throws IOException {
        throw ApiException.badRequest("SPDY is not supported yet");
    }
}
