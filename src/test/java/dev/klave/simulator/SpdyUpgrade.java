package dev.klave.simulator;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SPDY/3.1 upgrade kubectl falls back to: {@code POST} with {@code Upgrade: SPDY/3.1} and one
 * {@code X-Stream-Protocol-Version} header per protocol it speaks. The server picks the first one
 * it supports, in the client's order, and answers 101 naming it (k8s.io/apimachinery httpstream).
 */
final class SpdyUpgrade {
    private SpdyUpgrade() {
    }

    static boolean requested(HttpRequest request) {
        return request.header("upgrade").map(value -> value.equalsIgnoreCase("SPDY/3.1")).orElse(false);
    }

    static SpdySession accept(HttpExchange exchange, List<String> supported) throws IOException {
        List<String> offered = exchange.request().headerValues("x-stream-protocol-version");
        String protocol = offered.stream().filter(supported::contains).findFirst()
                .orElseThrow(() -> ApiException.badRequest("unable to upgrade: unable to negotiate protocol: client supports "
                        + offered + ", server supports " + supported));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Connection", "Upgrade");
        headers.put("Upgrade", "SPDY/3.1");
        headers.put("X-Stream-Protocol-Version", protocol);
        HttpExchange.RawConnection raw = exchange.switchProtocols(headers);
        return new SpdySession(raw.in(), raw.out(), raw.out());
    }
}
