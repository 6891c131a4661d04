package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code deployments/{name}/scale} and {@code statefulsets/{name}/scale}: an autoscaling/v1 Scale
 * read from and written to the workload's {@code spec.replicas}, by GET, PUT or PATCH (merge,
 * strategic, JSON patch). A body whose resourceVersion differs from the workload's is a conflict,
 * for a patch as for a replacement, as the apiserver's optimistic concurrency makes it.
 */
final class ScaleHandler implements ApiServer.SubresourceHandler {
    private final ObjectStore store;

    ScaleHandler(ObjectStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    @Override
    public void handle(HttpExchange exchange, RequestInfo info, ResourceType type, UserInfo user) throws IOException {
        HttpRequest request = exchange.request();
        String namespace = info.namespace();
        String name = info.name();
        switch (info.verb()) {
            case "get" -> Responses.json(exchange, 200, scale(store.get(type, namespace, name)
                    .orElseThrow(() -> type.notFound(name))));
            case "update", "patch" -> {
                ObjectStore.Written written = store.write(type, namespace, name, current -> {
                    ObjectNode workload = current.orElseThrow(() -> type.notFound(name));
                    ObjectNode wanted = info.verb().equals("update")
                            ? Json.parseObject(request.body()) : patched(scale(workload), request);
                    Preconditions.checkResourceVersion(type, name, workload, wanted);
                    JsonNode replicas = wanted.path("spec").path("replicas");
                    if (!replicas.canConvertToInt() || replicas.asInt() < 0) {
                        throw ApiException.invalid("autoscaling", "Scale", name, "spec.replicas",
                                "Invalid value: " + replicas + ": must be greater than or equal to 0");
                    }
                    Json.objectAt(workload, "spec").put("replicas", replicas.asInt());
                    return workload;
                }, ResourceHandler.dryRun(request));
                Responses.json(exchange, 200, scale(written.object()));
            }
            default -> throw ApiException.methodNotAllowed();
        }
    }

    private static ObjectNode patched(ObjectNode scale, HttpRequest request) {
        String contentType = request.header("content-type").orElse("").split(";")[0].strip();
        JsonNode patch = Json.parse(request.body());
        JsonNode result = switch (contentType) {
            case "application/merge-patch+json" -> Patches.mergePatch(scale, patch);
            case "application/strategic-merge-patch+json" -> Patches.strategicMergePatch(scale, patch);
            case "application/json-patch+json" -> Patches.jsonPatch(scale, patch);
            default -> throw ApiException.unsupportedMediaType(contentType);
        };
        return (ObjectNode) result;
    }

    static ObjectNode scale(ObjectNode workload) {
        ObjectNode scale = Json.object();
        scale.put("kind", "Scale");
        scale.put("apiVersion", "autoscaling/v1");
        ObjectNode metadata = scale.putObject("metadata");
        JsonNode source = workload.path("metadata");
        for (String field : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
            if (source.has(field)) {
                metadata.set(field, source.get(field).deepCopy());
            }
        }
        scale.putObject("spec").put("replicas", workload.path("spec").path("replicas").asInt());
        ObjectNode status = scale.putObject("status");
        status.put("replicas", workload.path("status").path("replicas").asInt());
        List<String> selector = new ArrayList<>();
        workload.path("spec").path("selector").path("matchLabels").properties()
                .forEach(entry -> selector.add(entry.getKey() + "=" + entry.getValue().asText()));
        status.put("selector", String.join(",", selector));
        return scale;
    }
}
