package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.Eventually;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kubectl port-forward over both transports (SPDY tunnelled in WebSocket, kubectl 1.32's first
 * choice, and plain SPDY/3.1), then a TCP client through the local port.
 */
class KubectlPortForwardTest {
    private static final Pattern FORWARDING = Pattern.compile("Forwarding from 127\\.0\\.0\\.1:(\\d+) -> (\\d+)");
    private static ClusterSimulator cluster;
    private static Kubectl admin;

    @BeforeAll
    static void start() {
        cluster = ClusterSimulator.builder()
                .object("""
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: web, namespace: default}
                        spec: {containers: [{name: app, image: web:1, ports: [{containerPort: 80}, {containerPort: 7000}]}]}
                        """)
                .start();
        admin = new Kubectl(cluster, cluster.adminToken());
    }

    @AfterAll
    static void stop() {
        admin.close();
        cluster.close();
    }

    @ParameterizedTest(name = "websockets={0}")
    @ValueSource(strings = {"true", "false"})
    void aTcpClientReachesThePodsPortsThroughKubectl(String websockets) throws IOException {
        cluster.clearRequests();
        Process forward = admin.start(Map.of("KUBECTL_PORT_FORWARD_WEBSOCKETS", websockets),
                "port-forward", "pod/web", ":80", ":7000");
        try {
            Map<Integer, Integer> ports = localPorts(forward);

            String http = exchange(ports.get(80), "GET / HTTP/1.1\r\nHost: web\r\n\r\n");
            String echo = exchange(ports.get(7000), "ping\n");

            assertThat(http).startsWith("HTTP/1.1 200 OK").endsWith("hello from web port 80\n");
            assertThat(echo).isEqualTo("ping\n");
            assertThat(cluster.requests()).anySatisfy(request -> {
                assertThat(request.path()).isEqualTo("/api/v1/namespaces/default/pods/web/portforward");
                if (websockets.equals("true")) {
                    assertThat(request.header("Sec-WebSocket-Protocol")).contains(PortForwardHandler.WEBSOCKET_PROTOCOL);
                } else {
                    assertThat(request.headers("X-Stream-Protocol-Version")).contains(PortForwardHandler.SPDY_PROTOCOL);
                }
            });
        } finally {
            forward.destroy();
        }
    }

    private static Map<Integer, Integer> localPorts(Process forward) {
        Map<Integer, Integer> ports = new HashMap<>();
        Eventually.until("kubectl listens on both local ports", Duration.ofSeconds(10), () -> {
            Matcher matcher = FORWARDING.matcher(admin.read(forward, "stdout"));
            while (matcher.find()) {
                ports.put(Integer.parseInt(matcher.group(2)), Integer.parseInt(matcher.group(1)));
            }
            return ports.size() == 2;
        });
        return ports;
    }

    /** Sends the text, half-closes, and reads everything the pod answers. */
    private static String exchange(int port, String text) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(text.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
