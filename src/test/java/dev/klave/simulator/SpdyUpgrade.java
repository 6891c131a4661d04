package dev.klave.simulator;

/** Placeholder until SPDY lands. */
final class SpdyUpgrade {
    private SpdyUpgrade() {
    }

    static boolean requested(HttpRequest request) {
        return request.header("upgrade").map(value -> value.equalsIgnoreCase("SPDY/3.1")).orElse(false);
    }
}
