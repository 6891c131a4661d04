package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * What listens on a simulated pod's ports: every declared containerPort answers. A connection
 * that starts like an HTTP request gets a fixed HTTP response naming the pod and port; anything
 * else is echoed back until the client stops sending.
 */
final class PodPorts {
    private static final Set<String> METHODS = Set.of("GET ", "HEAD", "POST", "PUT ", "DELE", "PATC", "OPTI");

    private PodPorts() {
    }

    static Set<Integer> declared(ObjectNode pod) {
        Set<Integer> ports = new HashSet<>();
        for (JsonNode container : pod.path("spec").path("containers")) {
            for (JsonNode port : container.path("ports")) {
                ports.add(port.path("containerPort").asInt());
            }
        }
        return ports;
    }

    /** Serves one forwarded connection until it is done. */
    static void serve(ObjectNode pod, int port, InputStream in, OutputStream out) throws IOException {
        PushbackInputStream input = new PushbackInputStream(in, 4);
        byte[] start = input.readNBytes(4);
        if (start.length == 0) {
            return;
        }
        input.unread(start);
        if (start.length == 4 && METHODS.contains(new String(start, StandardCharsets.US_ASCII))) {
            http(pod, port, input, out);
            return;
        }
        byte[] buffer = new byte[8192];
        for (int count; (count = input.read(buffer)) >= 0; ) {
            out.write(buffer, 0, count);
            out.flush();
        }
    }

    private static void http(ObjectNode pod, int port, InputStream in, OutputStream out) throws IOException {
        int matched = 0;
        byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        while (matched < end.length) {
            int next = in.read();
            if (next < 0) {
                return;
            }
            matched = next == end[matched] ? matched + 1 : (next == end[0] ? 1 : 0);
        }
        String body = "hello from " + Json.string(pod, "metadata", "name").orElse("") + " port " + port + "\n";
        String response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length()
                + "\r\nConnection: close\r\n\r\n" + body;
        out.write(response.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
