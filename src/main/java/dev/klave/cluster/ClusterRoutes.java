package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.klave.account.Principal;
import dev.klave.config.BaseUrl;
import dev.klave.http.Access;
import dev.klave.http.ApiRequest;
import dev.klave.http.ApiResponse;
import dev.klave.http.ApiRoutes;
import dev.klave.http.EdgeMap;
import dev.klave.http.RouteProvider;
import dev.klave.messages.Message;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** The cluster routes of spec 1 §4 "Clusters" (administrators only). */
public final class ClusterRoutes implements RouteProvider {
    private final Clusters clusters;
    private final Namespaces namespaces;
    private final RbacReconciliation reconciler;
    private final ClusterConnections connections;
    private final Consumer<ClusterId> deleting;
    private final BaseUrl baseUrl;

    /**
     * @param deleting runs in the deletion, before the cluster row goes: revokes what is
     *     restricted to the cluster (credentials)
     */
    public ClusterRoutes(Clusters clusters, Namespaces namespaces, RbacReconciliation reconciler,
            ClusterConnections connections, Consumer<ClusterId> deleting, BaseUrl baseUrl) {
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.namespaces = requireNonNull(namespaces, "namespaces is null");
        this.reconciler = requireNonNull(reconciler, "reconciler is null");
        this.connections = requireNonNull(connections, "connections is null");
        this.deleting = requireNonNull(deleting, "deleting is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
    }

    record Registration(String id, String name) {}

    /** The bootstrap JSON, with the field names the printed command uses. */
    record Tokens(String server, String ca, @JsonProperty("proxyToken") String proxyToken,
            @JsonProperty("reconcilerToken") String reconcilerToken) {}

    /**
     * @param kubernetesVersion the API server's version, as the last pass learned it
     * @param aggregatedDiscovery whether it serves aggregated discovery, which the agents' tools need
     */
    record ClusterView(String id, String name, String status, Instant createdAt, Optional<Instant> tokensSetAt,
            Optional<Instant> lastReconciliation, Optional<String> lastError, String proxyUrl,
            Optional<String> kubernetesVersion, Optional<Boolean> aggregatedDiscovery) {}

    record NamespaceView(String name, Optional<String> psaEnforce) {}

    record PassView(int created, int updated, int deleted) {}

    record CleanupView(String status, Optional<String> error, int bindingsDeleted, int rolesDeleted,
            boolean lockHeld) {}

    record DeletedView(String id, CleanupView rbacCleanup) {}

    @Override
    public void register(ApiRoutes routes) {
        routes.get("/api/clusters", Access.ADMIN, request -> ApiResponse.ok(
                        clusters.list().stream().map(this::view).toList()))
                .post("/api/clusters", Access.ADMIN, request -> {
                    Registration body = request.json(Registration.class);
                    return ApiResponse.created(view(clusters.register(body.id(), body.name(), Principal.of(request))));
                })
                .get("/api/clusters/{id}", Access.ADMIN, request -> ApiResponse.ok(view(cluster(request))))
                .delete("/api/clusters/{id}", Access.ADMIN, this::delete)
                .get("/api/clusters/{id}/bootstrap.yaml", Access.ADMIN, request -> {
                    Cluster cluster = cluster(request);
                    return ApiResponse.raw("application/yaml; charset=utf-8",
                                    BootstrapManifest.forCluster(cluster.id(), baseUrl.toString())
                                            .getBytes(StandardCharsets.UTF_8))
                            .withHeader("Content-Disposition", "attachment; filename=\"bootstrap.yaml\"");
                })
                .post("/api/clusters/{id}/tokens", Access.ADMIN, request -> {
                    Tokens body = request.json(Tokens.class);
                    BootstrapSecrets secrets = BootstrapSecrets.of(body.server(), body.ca(), body.proxyToken(),
                            body.reconcilerToken());
                    return ApiResponse.ok(view(clusters.setTokens(request.pathParameter("id"), secrets,
                            Principal.of(request))));
                })
                .get("/api/clusters/{id}/namespaces", Access.ADMIN, request -> {
                    ClusterId id = cluster(request).id();
                    try {
                        return ApiResponse.ok(namespaces.list(id).stream()
                                .map(namespace -> new NamespaceView(namespace.name(), namespace.psaEnforce()))
                                .toList());
                    } catch (ClusterCallFailed e) {
                        throw Message.CLUSTER_FAILED.refusal(e.summary());
                    }
                })
                .post("/api/clusters/{id}/reconcile", Access.ADMIN, request -> {
                    RbacReconciliation.Pass pass = reconciler.reconcile(cluster(request).id());
                    return ApiResponse.ok(new PassView(pass.created(), pass.updated(), pass.deleted()));
                });
    }

    private ApiResponse delete(ApiRequest request) {
        ClusterId id = cluster(request).id();
        RbacReconciliation.Cleanup cleanup = reconciler.cleanup(id);
        Map<String, String> report = new LinkedHashMap<>();
        report.put("cluster", id.value());
        report.put("rbac_cleanup", cleanup.status().code());
        report.put("bindings_deleted", String.valueOf(cleanup.bindingsDeleted()));
        report.put("roles_deleted", String.valueOf(cleanup.rolesDeleted()));
        deleting.accept(id);
        clusters.delete(id, Principal.of(request), report);
        connections.forget(id);
        return ApiResponse.ok(new DeletedView(id.value(), new CleanupView(cleanup.status().code(), cleanup.error(),
                cleanup.bindingsDeleted(), cleanup.rolesDeleted(), cleanup.lockHeld())));
    }

    private Cluster cluster(ApiRequest request) {
        return clusters.get(request.pathParameter("id"));
    }

    private ClusterView view(Cluster cluster) {
        ClusterCapabilities learned = clusters.capabilities(cluster.id());
        return new ClusterView(cluster.id().value(), cluster.name(), cluster.status().code(), cluster.createdAt(),
                cluster.tokensSetAt(), cluster.lastReconciledAt(), cluster.lastError(),
                baseUrl.resolve(EdgeMap.CLUSTERS + "/" + cluster.id().value()),
                learned.kubernetesVersion().filter(version -> !version.isEmpty()), learned.aggregatedDiscovery());
    }

}
