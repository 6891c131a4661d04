package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.Eventually;
import dev.klave.testing.TestingClock;
import dev.klave.testing.TestingKlave;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Klave behind Debian's nginx configured the way the black-box review found exploitable:
 * {@code Upgrade} and {@code Connection} passed through as the client sent them. A client offering
 * h2c through it must get HTTP/1.1 back, never a tunnel on which it could set its own
 * {@code X-Forwarded-For} on every stream; so the per-address sign-in limit holds (spec 1 §5: 10
 * attempts a minute, then 429). Needs nginx: runs in the {@code with-nginx} profile.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BehindNginxIT {
    /** The client's own address, so that it is not nginx's (the only trusted proxy). */
    private static final String CLIENT = "127.0.0.2";

    private Path directory;
    private TestingKlave klave;
    private Process nginx;
    private int port;

    @BeforeAll
    void start() throws Exception {
        directory = Files.createTempDirectory("klave-nginx-");
        klave = TestingKlave.start(new TestingClock(), settings -> settings
                .with("SERVICE_TRUSTED_PROXIES", "127.0.0.1"));
        port = freePort();
        Path conf = directory.resolve("nginx.conf");
        Files.createDirectories(directory.resolve("tmp"));
        Files.writeString(conf, """
                user root;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 64; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/tmp;
                    proxy_temp_path %1$s/tmp;
                    fastcgi_temp_path %1$s/tmp;
                    uwsgi_temp_path %1$s/tmp;
                    scgi_temp_path %1$s/tmp;
                    upstream klave { server 127.0.0.1:%2$d; keepalive 8; }
                    server {
                        listen 127.0.0.1:%3$d;
                        listen %4$s:%3$d;
                        location / {
                            proxy_pass http://klave;
                            proxy_http_version 1.1;
                            proxy_set_header Host $host;
                            proxy_set_header Upgrade $http_upgrade;
                            proxy_set_header Connection $http_connection;
                            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        }
                    }
                }
                """.formatted(directory, klave.port(), port, CLIENT));
        String binary = Files.isExecutable(Path.of("/usr/sbin/nginx")) ? "/usr/sbin/nginx" : "nginx";
        nginx = new ProcessBuilder(binary, "-p", directory.toString(), "-c", conf.toString(), "-e",
                directory.resolve("error.log").toString(), "-g", "daemon off;")
                .redirectErrorStream(true).redirectOutput(directory.resolve("nginx.out").toFile()).start();
        Process started = nginx;
        try {
            Eventually.until("nginx accepting connections on port " + port, Duration.ofSeconds(10), () -> {
                if (!started.isAlive()) {
                    throw new AssertionError("nginx exited with status " + started.exitValue());
                }
                return answers(port);
            });
        } catch (AssertionError notStarted) {
            throw new AssertionError("nginx did not start (it needs Debian's nginx; .ci/run installs it): "
                    + Files.readString(directory.resolve("nginx.out")), notStarted);
        }
    }

    @AfterAll
    void stop() throws Exception {
        if (nginx != null) {
            nginx.destroy();
            nginx.waitFor(10, TimeUnit.SECONDS);
        }
        if (klave != null) {
            klave.close();
        }
        dev.klave.testing.TestingDatabase.deleteTree(directory);
    }

    @Test
    void anH2cOfferThroughTheFrontEndIsAnsweredInHttp1AndTheSignInLimitHolds() throws Exception {
        String offer = "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n";
        String first = exchange("GET /api/auth/methods HTTP/1.1\r\nHost: klave\r\n" + offer + "\r\n");
        assertThat(first).startsWith("HTTP/1.1 200 ").doesNotContain("101 Switching Protocols");

        List<String> statuses = new ArrayList<>();
        for (int attempt = 1; attempt <= 12; attempt++) {
            // A login of its own each time: only the per-address limit can say 429.
            String body = "{\"login\":\"user-" + attempt + "\",\"password\":\"wrong password\"}";
            String answer = exchange("POST /api/auth/login HTTP/1.1\r\nHost: klave\r\n" + offer
                    + "X-Forwarded-For: 203.0.113." + attempt + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body);
            statuses.add(answer.substring(9, 12));
        }

        assertThat(statuses.subList(0, 10)).containsOnly("401");
        assertThat(statuses.subList(10, 12)).containsOnly("429");
    }

    @Test
    void prefixedBytesAfterARequestNeverBecomeAnotherRequestAtKlave() throws Exception {
        // nginx frames by Content-Length; the bytes after the declared body are the client's own
        // next request on its own connection, never glued to someone else's at Klave.
        String answer = exchange("POST /api/auth/login HTTP/1.1\r\nHost: klave\r\nContent-Length: 5\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/auth/methods HTTP/1.1\r\nHost: klave\r\n\r\n");

        // Refused (by nginx or by Klave), and the bytes behind it never answered as a request.
        assertThat(answer).startsWith("HTTP/1.1 400 ");
        assertThat(answer).doesNotContain("HTTP/1.1 200 ");
    }

    /**
     * One request on a connection of its own from {@link #CLIENT}: the first answer nginx gives
     * (head and body by its {@code Content-Length}), then whatever else comes within half a second.
     */
    private String exchange(String request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(CLIENT), 0));
            socket.connect(new InetSocketAddress(InetAddress.getByName(CLIENT), port), 5_000);
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            while (!received.toString(StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
                int read = in.read();
                if (read < 0) {
                    return received.toString(StandardCharsets.UTF_8);
                }
                received.write(read);
            }
            java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)\r\ncontent-length: *(\\d+)")
                    .matcher(received.toString(StandardCharsets.ISO_8859_1));
            int body = length.find() ? Integer.parseInt(length.group(1)) : 0;
            received.write(in.readNBytes(body));
            socket.setSoTimeout(500);
            byte[] buffer = new byte[8192];
            try {
                for (int read; (read = in.read(buffer)) >= 0; ) {
                    received.write(buffer, 0, read);
                }
            } catch (SocketTimeoutException quiet) {
                // Nothing more: the connection is kept for a next request that never comes.
            }
            return received.toString(StandardCharsets.UTF_8);
        }
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
