package dev.klave.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.testing.KlaveProcess;
import dev.klave.testing.TestingHttp;
import dev.klave.testing.TestingPeople;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Log injection, seen where an operator sees it: the standard error of the packaged jar. Hostile
 * values of each kind that reach a log line or an event — a forged CI token's claims, a login typed
 * at the sign-in form, a path, headers, a request line — leave no raw control character behind:
 * no forged line, no terminal escape. What was logged is still there, escaped.
 */
class HostileInputLogIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A line a client would like to see in Klave's log, as if Klave had written it. */
    private static final String FORGED = "1999-01-01T00:00:00.000Z INFO  [main] dev.klave.Klave - forged line";
    private static final String ESCAPES = "\u001b[2J\u001b[31m";

    @TempDir
    Path directory;

    private static String base64url(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static void raw(int port, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            socket.getInputStream().readAllBytes();
        } catch (java.net.SocketTimeoutException kept) {
            // Answered and kept open: what matters is the log.
        }
    }

    @Test
    void hostileValuesOfEveryKindReachTheLogAndEventsEscaped() throws Exception {
        try (KlaveProcess klave = KlaveProcess.start(directory, Map.of("SERVICE_LISTEN", "127.0.0.1:0",
                "SERVICE_SHUTDOWN_DELAY", "0s"), "serve")) {
            int port = klave.awaitListening(Duration.ofSeconds(60));
            TestingHttp http = new TestingHttp(port);
            KlaveProcess created = KlaveProcess.run(directory, Map.of(), "user", "create", "root", "--admin");
            String admin = TestingPeople.cookieOf(http.send("POST", "/api/auth/link/complete", "{\"token\":\""
                    + TestingPeople.tokenOf(created.stdout().getFirst()) + "\",\"password\":\""
                    + TestingPeople.PASSWORD + "\"}"));

            // A CI token with a forged issuer and key id: refused (401), its reason logged.
            String header = JSON.writeValueAsString(Map.of("alg", "RS256", "typ", "JWT", "kid", "k" + ESCAPES));
            String claims = JSON.writeValueAsString(Map.of("iss", "https://evil.example\n" + FORGED + ESCAPES,
                    "aud", "http://localhost:8080", "exp", 4_102_444_800L, "jti", "j\r\n" + FORGED));
            String token = base64url(header) + "." + base64url(claims) + ".c2lnbmF0dXJl";
            HttpResponse<String> exchange = http.send("POST", "/v1/ci/forge-actions/token",
                    JSON.writeValueAsString(Map.of("token", token)));
            assertThat(exchange.statusCode()).isEqualTo(401);

            // A login typed at the sign-in form: refused, kept in the login.failure event.
            String login = "mallory\n" + FORGED + ESCAPES;
            assertThat(http.send("POST", "/api/auth/login", JSON.writeValueAsString(Map.of("login", login,
                    "password", "not the password"))).statusCode()).isEqualTo(401);

            // Paths, headers and a request line with control bytes in them, on every edge.
            raw(port, "GET /api/x" + ESCAPES + " HTTP/1.1\r\nHost: k\r\nConnection: close\r\n\r\n");
            raw(port, "GET /clusters/prod-1/api/v1/pods" + ESCAPES + " HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer klt_"
                    + ESCAPES + "\r\nX-Forwarded-For: 10.0.0.1" + ESCAPES + "\r\nConnection: close\r\n\r\n");
            raw(port, "GET /clusters/prod-1/api HTTP/1.1\r\nHost: k" + ESCAPES + "\r\nX-Note: a\r\n " + FORGED
                    + "\r\n\r\n");
            raw(port, "POST /api/auth/login HTTP/1.1\r\nHost: k\r\nContent-Length: 3\r\nTransfer-Encoding: "
                    + ESCAPES + "chunked\r\n\r\n0\r\n\r\n");

            JsonNode events = JSON.readTree(http.get("/api/control-events", "Cookie", admin).body()).get("events");
            List<String> texts = new java.util.ArrayList<>();
            events.forEach(event -> {
                texts.add(event.path("reason").asText(""));
                event.path("details").forEach(detail -> texts.add(detail.asText()));
            });
            assertThat(texts).anyMatch(text -> text.startsWith("mallory\\n1999-01-01"));
            assertThat(texts).anyMatch(text -> text.contains("https://evil.example\\n1999-01-01"));
            assertThat(String.join("", texts)).doesNotContain("\n").doesNotContain("\r").doesNotContain("\u001b");

            klave.terminate();
            klave.awaitExit(Duration.ofSeconds(30));
            List<String> log = klave.stderr();
            assertThat(log).as("Klave's log").anyMatch(line -> line.contains(
                    "CI exchange refused (401): issuer https://evil.example\\n1999-01-01T00:00:00.000Z INFO"));
            assertThat(log).noneMatch(line -> line.startsWith("1999-01-01"));
            for (String line : log) {
                assertThat(line.chars().filter(c -> c < 0x20 && c != '\t' || c == 0x7f || c == 0x1b).count())
                        .as("raw control characters in log line %s", line).isZero();
            }
        }
    }
}
