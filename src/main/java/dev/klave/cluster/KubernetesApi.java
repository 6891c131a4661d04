package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.ClusterUri;
import dev.klave.kube.Query;
import dev.klave.outbound.Answer;
import dev.klave.outbound.OutboundFailure;
import dev.klave.outbound.OutboundHttp;
import dev.klave.messages.Text;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The control plane's client for one cluster and one service-account token: plain REST calls on
 * JSON trees, over TLS that trusts only the CA registered for the cluster. Each call is bounded by
 * {@link OutboundHttp}: 15 s in all (connecting, the head and the whole body) and 32 MiB of answer
 * (a page of 500 RBAC objects is a few), so an API server that trickles or answers without end
 * fails the reconciler's call instead of holding it or filling Klave's memory.
 *
 * <p>A small client of our own rather than fabric8: the reconciler needs a handful of RBAC and
 * namespace calls, and fabric8 8.0 brings Jackson 3 and a second Vert.x version with it.
 */
public final class KubernetesApi {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Aggregated discovery, either version the servers serve, else the legacy document. */
    public static final String AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
            + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private static final long ANSWER_LIMIT = 32L * 1024 * 1024;

    private final OutboundHttp http;
    private final URI server;
    private final String token;

    public KubernetesApi(URI server, List<X509Certificate> trustedCas, String token) {
        this.server = requireNonNull(server, "server is null");
        this.token = requireNonNull(token, "token is null");
        this.http = OutboundHttp.over(pinnedTo(trustedCas), DEADLINE, ANSWER_LIMIT);
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

    public Optional<JsonNode> get(ClusterPath path) {
        return get(path, Query.NONE);
    }

    public Optional<JsonNode> get(ClusterPath path, Query query) {
        Answer response = send(request(path, query).GET());
        if (response.status() == 404) {
            return Optional.empty();
        }
        return Optional.of(body(check(response)));
    }

    /** The API server's version, as {@code /version}'s {@code gitVersion} says it. */
    public String version() {
        return get(ClusterPath.of("version")).map(version -> version.path("gitVersion").asText(""))
                .orElse("");
    }

    /**
     * Whether the server answers aggregated discovery (apidiscovery.k8s.io v2 or v2beta1) when asked
     * for it, as the agents' tools ask; an older server answers the legacy document instead.
     */
    public boolean servesAggregatedDiscovery() {
        Answer answer = send(request(ClusterPath.of("api"), Query.NONE).setHeader("Accept", AGGREGATED).GET());
        return answer.status() == 200 && body(answer).path("kind").asText("").equals("APIGroupDiscoveryList");
    }

    /** The items of a list, all pages. */
    public List<JsonNode> list(ClusterPath path, Optional<String> labelSelector) {
        List<JsonNode> items = new ArrayList<>();
        String next = "";
        do {
            Query query = Query.NONE.with("limit", "500");
            if (labelSelector.isPresent()) {
                query = query.with("labelSelector", labelSelector.get());
            }
            if (!next.isEmpty()) {
                query = query.with("continue", next);
            }
            JsonNode page = body(check(send(request(path, query).GET())));
            page.path("items").forEach(items::add);
            next = page.path("metadata").path("continue").asText("");
        } while (!next.isEmpty());
        return items;
    }

    public JsonNode create(ClusterPath path, JsonNode object) {
        return body(check(send(request(path, Query.NONE).POST(json(object)).header("Content-Type", "application/json"))));
    }

    public JsonNode replace(ClusterPath path, JsonNode object) {
        return body(check(send(request(path, Query.NONE).PUT(json(object)).header("Content-Type", "application/json"))));
    }

    /** Deletes; returns false when it was already gone. */
    public boolean delete(ClusterPath path) {
        Answer response = send(request(path, Query.NONE).DELETE());
        if (response.status() == 404) {
            return false;
        }
        check(response);
        return true;
    }

    private HttpRequest.Builder request(ClusterPath path, Query query) {
        return HttpRequest.newBuilder(ClusterUri.of(server, path, query))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .header("User-Agent", "klave");
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            return http.send(request.build());
        } catch (OutboundFailure e) {
            throw ClusterCallFailed.connection(switch (e.kind()) {
                case DEADLINE -> ClusterCallFailed.Kind.TIMEOUT;
                case TOO_LARGE -> ClusterCallFailed.Kind.CONNECTION;
                case FAILED, ADDRESS_REFUSED -> ClusterCallFailed.Kind.of(e);
            }, e);
        }
    }

    private static Answer check(Answer response) {
        if (response.status() / 100 == 2) {
            return response;
        }
        String message = response.text();
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
        throw ClusterCallFailed.answered(response.status(), message);
    }

    private static JsonNode body(Answer response) {
        try {
            return MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw ClusterCallFailed.answered(response.status(), Text.CLUSTER_ANSWER_NOT_JSON.text());
        }
    }

    private static HttpRequest.BodyPublisher json(JsonNode object) {
        try {
            return HttpRequest.BodyPublishers.ofByteArray(MAPPER.writeValueAsBytes(object));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }
}
