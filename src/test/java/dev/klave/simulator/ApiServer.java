package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The request pipeline of kube-apiserver, in its order: record, check for forbidden headers (which
 * fails the test, not the request: {@link HeaderGuard}), delay (fault), authenticate,
 * impersonate, authorize, then serve discovery or the resource and its subresources.
 */
final class ApiServer implements SimulatorHttpServer.Handler {
    private static final Logger LOG = System.getLogger(ApiServer.class.getName());

    private final Authenticator authenticator;
    private final Impersonation impersonation;
    private final RbacAuthorizer authorizer;
    private final Discovery discovery;
    private final ResourceHandler resources;
    private final Map<String, SubresourceHandler> subresources;
    private final NodeProxyHandler nodeProxy;
    private final ReviewHandler reviews;
    private final RequestLog log;
    private final HeaderGuard guard;
    private final Faults faults;

    /** A subresource (log, exec, scale, …) served for its parent resource. */
    interface SubresourceHandler {
        void handle(HttpExchange exchange, RequestInfo info, ResourceType type, UserInfo user) throws IOException;
    }

    ApiServer(Authenticator authenticator, RbacAuthorizer authorizer, Discovery discovery, ResourceHandler resources,
            Map<String, SubresourceHandler> subresources, NodeProxyHandler nodeProxy, RequestLog log, HeaderGuard guard,
            Faults faults) {
        this.nodeProxy = requireNonNull(nodeProxy, "nodeProxy is null");
        this.authenticator = requireNonNull(authenticator, "authenticator is null");
        this.authorizer = requireNonNull(authorizer, "authorizer is null");
        this.impersonation = new Impersonation(authorizer);
        this.discovery = requireNonNull(discovery, "discovery is null");
        this.resources = requireNonNull(resources, "resources is null");
        this.subresources = Map.copyOf(subresources);
        this.reviews = new ReviewHandler(authorizer);
        this.log = requireNonNull(log, "log is null");
        this.guard = requireNonNull(guard, "guard is null");
        this.faults = requireNonNull(faults, "faults is null");
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        HttpRequest request = exchange.request();
        log.add(RecordedRequest.of(request));
        guard.inspect(request);
        faults.beforeAnswer();
        try {
            UserInfo requester = authenticator.authenticate(request).orElseThrow(ApiException::unauthorized);
            UserInfo user = impersonation.apply(requester, request);
            RequestInfo info = RequestInfo.parse(request);
            AuthorizationAttributes attributes = info.attributes(user);
            RbacAuthorizer.Decision decision = authorizer.authorize(attributes);
            if (!decision.allowed()) {
                throw attributes.forbidden(decision.reason());
            }
            if (request.body().length > 0 && !isJsonOrYaml(request)) {
                request = fromProtobuf(request);
                exchange.rewriteRequest(request);
            }
            if (info.resourceRequest()) {
                serveResource(exchange, info, user);
            } else {
                serveNonResource(exchange, info);
            }
        } catch (ApiException error) {
            if (!exchange.responded()) {
                Responses.status(exchange, error);
            }
        } catch (RuntimeException bug) {
            LOG.log(Level.WARNING, "simulator failed on " + request.method() + " " + request.target(), bug);
            if (!exchange.responded()) {
                Responses.status(exchange, ApiException.internal(bug.toString()));
            }
        }
    }

    /**
     * Bodies are JSON (or YAML for apply). Protobuf bodies of the kinds kubectl's typed clients
     * send are converted; any other body is refused with 415.
     */
    private static HttpRequest fromProtobuf(HttpRequest request) {
        if (!ProtobufBodies.isProtobuf(request)) {
            throw ApiException.unsupportedBody(request.header("content-type").orElse(""));
        }
        ObjectNode json = ProtobufBodies.toJson(request.body())
                .orElseThrow(() -> ApiException.unsupportedBody(ProtobufBodies.CONTENT_TYPE));
        Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
        headers.put("content-type", List.of("application/json"));
        return new HttpRequest(request.method(), request.target(), request.path(), request.query(), headers, Json.bytes(json));
    }

    private static boolean isJsonOrYaml(HttpRequest request) {
        String contentType = request.header("content-type").orElse("application/json");
        return contentType.contains("json") || contentType.contains("yaml");
    }

    private void serveNonResource(HttpExchange exchange, RequestInfo info) throws IOException {
        String path = info.path();
        if (path.equals("/healthz") || path.equals("/livez") || path.equals("/readyz")) {
            Responses.text(exchange, 200, "ok");
            return;
        }
        if (!info.verb().equals("get")) {
            throw ApiException.methodNotAllowed();
        }
        if (!faults.olderServer() && AggregatedDiscovery.wanted(exchange.request())) {
            Optional<ObjectNode> aggregated = AggregatedDiscovery.document(path, faults.metricsApi());
            if (aggregated.isPresent()) {
                // As the API server does (KEP-3352): an entity tag of the document, and 304 without
                // it when the client already has it.
                byte[] body = Json.bytes(aggregated.get());
                String etag = AggregatedDiscovery.etag(body);
                if (exchange.request().header("if-none-match").filter(etag::equals).isPresent()) {
                    exchange.respond(304, AggregatedDiscovery.CONTENT_TYPE, new byte[0], Map.of("ETag", etag));
                } else {
                    exchange.respond(200, AggregatedDiscovery.CONTENT_TYPE, body, Map.of("ETag", etag));
                }
                return;
            }
        }
        Optional<ObjectNode> document = discovery.document(path, faults.olderServer() ? "26" : "32")
                .or(() -> OpenApi.document(path));
        if (document.isEmpty()) {
            throw ApiException.pathNotFound();
        }
        Responses.json(exchange, 200, document.get());
    }

    private void serveResource(HttpExchange exchange, RequestInfo info, UserInfo user) throws IOException {
        if (info.apiGroup().isEmpty() && info.resource().equals("nodes") && info.subresource().equals("proxy")) {
            nodeProxy.handle(exchange, info);
            return;
        }
        ResourceType type = ResourceCatalog.find(info.apiGroup(), info.apiVersion(), info.resource())
                .filter(found -> faults.metricsApi() || !found.group().equals(ResourceCatalog.POD_METRICS.group()))
                .orElseThrow(ApiException::pathNotFound);
        if (!type.namespaced() && !info.namespace().isEmpty() && !type.equals(ResourceCatalog.NAMESPACES)) {
            throw ApiException.pathNotFound();
        }
        if (type.namespaced() && info.namespace().isEmpty() && !info.name().isEmpty()) {
            throw ApiException.pathNotFound();
        }
        if (type.review()) {
            reviews.handle(exchange, info, type, user);
            return;
        }
        if (!info.subresource().isEmpty()) {
            SubresourceHandler handler = subresources.get(type.plural() + "/" + info.subresource());
            if (handler == null || !ResourceCatalog.hasSubresource(type, info.subresource())) {
                throw ApiException.pathNotFound();
            }
            handler.handle(exchange, info, type, user);
            return;
        }
        resources.handle(exchange, info, type, user);
    }
}
