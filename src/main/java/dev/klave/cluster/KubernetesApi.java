package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;

/**
 * The control plane's client for one cluster and one service-account token: plain REST calls on
 * JSON trees, over TLS that trusts only the CA registered for the cluster.
 *
 * <p>A small client of our own rather than fabric8: the reconciler needs a handful of RBAC and
 * namespace calls, and fabric8 8.0 brings Jackson 3 and a second Vert.x version with it.
 */
public final class KubernetesApi {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

    private final HttpClient client;
    private final URI server;
    private final String token;

    public KubernetesApi(URI server, List<X509Certificate> trustedCas, String token) {
        this.server = requireNonNull(server, "server is null");
        this.token = requireNonNull(token, "token is null");
        this.client = HttpClient.newBuilder()
                .sslContext(pinnedTo(trustedCas))
                .connectTimeout(CONNECT_TIMEOUT)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /** An SSL context that trusts exactly {@code cas}: a certificate from anyone else fails the handshake. */
    public static SSLContext pinnedTo(List<X509Certificate> cas) {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("cluster-ca-" + i, cas.get(i));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a TLS context for the cluster CA", e);
        }
    }

    public Optional<JsonNode> get(String path) {
        HttpResponse<String> response = send(request(path).GET());
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        return Optional.of(body(check(response)));
    }

    /** The items of a list, all pages. */
    public List<JsonNode> list(String path, Optional<String> labelSelector) {
        List<JsonNode> items = new ArrayList<>();
        String next = "";
        do {
            StringBuilder query = new StringBuilder("?limit=500");
            labelSelector.ifPresent(selector -> query.append("&labelSelector=").append(encode(selector)));
            if (!next.isEmpty()) {
                query.append("&continue=").append(encode(next));
            }
            JsonNode page = body(check(send(request(path + query).GET())));
            page.path("items").forEach(items::add);
            next = page.path("metadata").path("continue").asText("");
        } while (!next.isEmpty());
        return items;
    }

    public JsonNode create(String path, JsonNode object) {
        return body(check(send(request(path).POST(json(object)).header("Content-Type", "application/json"))));
    }

    public JsonNode replace(String path, JsonNode object) {
        return body(check(send(request(path).PUT(json(object)).header("Content-Type", "application/json"))));
    }

    /** Deletes; returns false when it was already gone. */
    public boolean delete(String path) {
        HttpResponse<String> response = send(request(path).DELETE());
        if (response.statusCode() == 404) {
            return false;
        }
        check(response);
        return true;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(server + path))
                .timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .header("User-Agent", "klave");
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException e) {
            throw ClusterCallFailed.connection(ClusterCallFailed.Kind.TIMEOUT, e);
        } catch (HttpTimeoutException e) {
            throw ClusterCallFailed.connection(ClusterCallFailed.Kind.TIMEOUT, e);
        } catch (SSLHandshakeException e) {
            throw ClusterCallFailed.connection(ClusterCallFailed.Kind.CERTIFICATE, e);
        } catch (ConnectException | UnknownHostException e) {
            throw ClusterCallFailed.connection(ClusterCallFailed.Kind.UNREACHABLE, e);
        } catch (IOException e) {
            throw ClusterCallFailed.connection(classify(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ClusterCallFailed.connection(ClusterCallFailed.Kind.CONNECTION, e);
        }
    }

    /** The JDK sometimes wraps the real cause; look for it along the chain. */
    private static ClusterCallFailed.Kind classify(IOException failure) {
        for (Throwable e = failure; e != null; e = e.getCause()) {
            if (e instanceof SSLHandshakeException || e instanceof java.security.cert.CertificateException) {
                return ClusterCallFailed.Kind.CERTIFICATE;
            }
            if (e instanceof ConnectException || e instanceof UnknownHostException
                    || e instanceof java.net.NoRouteToHostException) {
                return ClusterCallFailed.Kind.UNREACHABLE;
            }
            if (e instanceof HttpTimeoutException || e instanceof java.net.SocketTimeoutException) {
                return ClusterCallFailed.Kind.TIMEOUT;
            }
        }
        return ClusterCallFailed.Kind.CONNECTION;
    }

    private static HttpResponse<String> check(HttpResponse<String> response) {
        if (response.statusCode() / 100 == 2) {
            return response;
        }
        String message = response.body();
        try {
            JsonNode status = MAPPER.readTree(response.body());
            if (status.hasNonNull("message")) {
                message = status.get("message").asText();
            }
        } catch (IOException notJson) {
            // Keep the raw body, shortened below.
        }
        if (message.length() > 300) {
            message = message.substring(0, 300) + "…";
        }
        throw ClusterCallFailed.answered(response.statusCode(), message);
    }

    private static JsonNode body(HttpResponse<String> response) {
        try {
            return MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw ClusterCallFailed.answered(response.statusCode(), "respuesta que no es JSON");
        }
    }

    private static HttpRequest.BodyPublisher json(JsonNode object) {
        try {
            return HttpRequest.BodyPublishers.ofByteArray(MAPPER.writeValueAsBytes(object));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
