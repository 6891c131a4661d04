package dev.klave.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A real HTTP client pointed at a Klave started by the test, plus raw requests for edge cases. */
public final class TestingHttp {
    private final HttpClient client;
    private final java.util.Optional<javax.net.ssl.SSLContext> tls;
    private final String base;
    private final int port;

    public TestingHttp(int port) {
        this.port = port;
        this.base = "http://127.0.0.1:" + port;
        this.tls = java.util.Optional.empty();
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1).build();
    }

    /** For a Klave serving HTTPS with {@code certificate} (PEM), trusted as its own CA. */
    public TestingHttp(int port, java.nio.file.Path certificate) {
        this.port = port;
        this.base = "https://127.0.0.1:" + port;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(certificate)) {
            java.security.cert.X509Certificate ca = (java.security.cert.X509Certificate)
                    java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in);
            this.tls = java.util.Optional.of(dev.klave.cluster.KubernetesApi.pinnedTo(java.util.List.of(ca)));
            this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                    .version(HttpClient.Version.HTTP_1_1)
                    .sslContext(tls.get())
                    .build();
        } catch (IOException | java.security.cert.CertificateException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The TLS that trusts this Klave's certificate, for a test's own sockets (HTTPS only). */
    public javax.net.ssl.SSLContext tls() {
        return tls.orElseThrow(() -> new IllegalStateException("this Klave serves plain HTTP"));
    }

    public int port() {
        return port;
    }

    public HttpResponse<String> get(String path, String... headers) {
        return send("GET", path, null, headers);
    }

    public HttpResponse<String> head(String path, String... headers) {
        return send("HEAD", path, null, headers);
    }

    /** Sends {@code method path} with an optional body; headers are name, value pairs. */
    public HttpResponse<String> send(String method, String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes {@code head} (request line and headers, CRLF-separated, without the blank line) and
     * then {@code body} in chunked encoding, {@code chunkSize} bytes at a time, stopping early if
     * the server closes; returns everything the server answered.
     */
    public String rawChunked(String head, byte[] body, int chunkSize) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            try {
                for (int offset = 0; offset < body.length; offset += chunkSize) {
                    int length = Math.min(chunkSize, body.length - offset);
                    out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(body, offset, length);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException closedByServer) {
                // The server answered and closed before the whole body was sent: read its answer.
            }
            return readAll(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                answer.write(buffer, 0, read);
            }
        } catch (IOException resetAfterAnswer) {
            // A reset after the answer arrived still leaves the answer readable.
        }
        return answer.toString(StandardCharsets.UTF_8);
    }
}
