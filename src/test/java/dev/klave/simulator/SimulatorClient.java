package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A plain HTTPS client for tests that look at the API's wire format, trusting only the simulator CA. */
final class SimulatorClient {
    private final ClusterSimulator simulator;
    private final String token;
    private final HttpClient client;

    record Response(int status, String contentType, String body) {
        ObjectNode json() {
            return Json.parseObject(body);
        }
    }

    SimulatorClient(ClusterSimulator simulator, String token) {
        this.simulator = requireNonNull(simulator, "simulator is null");
        this.token = requireNonNull(token, "token is null");
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .sslContext(trusting(simulator.caCertificatePem())).connectTimeout(Duration.ofSeconds(5)).build();
    }

    static SSLContext trusting(String caPem) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII))));
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    Response get(String path) {
        return send("GET", path, "", Map.of());
    }

    Response send(String method, String path, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(simulator.url() + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (!token.isEmpty()) {
            request.header("Authorization", "Bearer " + token);
        }
        if (!body.isEmpty() && !headers.containsKey("Content-Type")) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        try {
            HttpResponse<String> response;
            try {
                response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException staleConnection) {
                if (!method.equals("GET")) {
                    throw staleConnection;
                }
                // A pooled connection the server had just closed (its FIN not yet read): a GET is
                // sent again once, on a new connection, as Go's and browsers' clients do.
                response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            }
            return new Response(response.statusCode(), response.headers().firstValue("content-type").orElse(""), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpClient httpClient() {
        return client;
    }
}
