package dev.klave.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingKlave;
import dev.klave.testing.TestingTls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A Klave on SQLite serving HTTPS at the address its base URL names (so the browser's Origin
 * passes the /api origin check and kubectl accepts the issued kubeconfig), plus a cluster
 * simulator with a namespace {@code team-a} (pod security baseline) holding pod {@code web-0}.
 */
final class WebKlave implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    final ClusterSimulator cluster;
    final TestingKlave klave;
    /** Klave's clock: tests move it (a request's expiry) instead of waiting. */
    final TestingClock clock;
    final TestingHttp http;
    final String baseUrl;

    private WebKlave(ClusterSimulator cluster, TestingKlave klave, TestingClock clock, String baseUrl) {
        this.cluster = cluster;
        this.klave = klave;
        this.clock = clock;
        this.http = klave.http();
        this.baseUrl = baseUrl;
    }

    static WebKlave start() {
        return start(java.util.Optional.empty());
    }

    /** As {@link #start()}, with {@code forge} as the forge App (its settings and its TLS). */
    static WebKlave start(java.util.Optional<dev.klave.testing.TestingForge> forge) {
        return start(forge, java.util.Map.of());
    }

    /** As {@link #start(java.util.Optional)}, with more settings (an OIDC provider's). */
    static WebKlave start(java.util.Optional<dev.klave.testing.TestingForge> forge, java.util.Map<String, String> more) {
        ClusterSimulator cluster = ClusterSimulator.builder().start();
        cluster.objects().put("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n"
                + "    pod-security.kubernetes.io/enforce: baseline\n");
        cluster.objects().put("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  namespace: team-a\n"
                + "spec:\n  containers:\n  - name: web\n    image: nginx\n");
        int port = freePort();
        String baseUrl = "https://127.0.0.1:" + port;
        TestingTls tls = TestingTls.generate();
        java.util.function.UnaryOperator<dev.klave.testing.TestingSettings> settings = base -> base
                .with("SERVICE_LISTEN", "127.0.0.1:" + port)
                .with("SERVICE_BASE_URL", baseUrl)
                .with("SERVICE_TLS_CERT", tls.certificate().toString())
                .with("SERVICE_TLS_KEY", tls.privateKey().toString())
                .with("SERVICE_KUBECONFIG_CA", tls.certificate().toString())
                .with("SERVICE_TRUSTED_PROXIES", "127.0.0.1/32")
                // A notification destination on the loopback is accepted when added (a closed port: it fails when sent).
                .with("SERVICE_WEBHOOK_ALLOW", "127.0.0.1/32");
        java.util.function.UnaryOperator<dev.klave.testing.TestingSettings> own = settings;
        settings = values -> {
            dev.klave.testing.TestingSettings applied = own.apply(values);
            more.forEach(applied::with);
            return applied;
        };
        TestingClock clock = new TestingClock();
        TestingKlave klave = forge.isPresent()
                ? TestingKlave.startWithForge(clock, forge.get(), settings)
                : TestingKlave.start(clock, settings);
        return new WebKlave(cluster, klave, clock, baseUrl);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a request and insists on {@code status}; returns the JSON answer (or null when empty). */
    JsonNode expect(int status, String method, String path, String body, String cookie) {
        HttpResponse<String> response = http.send(method, path, body, "Cookie", cookie);
        if (response.statusCode() != status) {
            throw new AssertionError(method + " " + path + ": expected " + status + ", got " + response.statusCode()
                    + " " + response.body());
        }
        try {
            return response.body().isEmpty() ? null : JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String idOf(String adminCookie, String login) {
        for (JsonNode subject : expect(200, "GET", "/api/subjects", null, adminCookie)) {
            if (subject.get("login").asText().equals(login)) {
                return subject.get("id").asText();
            }
        }
        throw new AssertionError("no subject " + login);
    }

    /** Waits (bounded) for the reconciler to write the tier's RoleBinding in {@code namespace}. */
    void awaitBinding(String namespace, String tier) {
        Eventually.until("the RoleBinding klave-" + tier + " in " + namespace, Duration.ofSeconds(10),
                () -> cluster.objects().get("rolebindings", namespace, "klave-" + tier).isPresent());
    }

    @Override
    public void close() {
        klave.close();
        cluster.close();
    }
}
