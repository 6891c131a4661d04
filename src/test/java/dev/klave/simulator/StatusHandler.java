package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * The {@code status} subresource: reads the whole object; writes change only {@code .status}, the
 * mirror image of writes to the main resource, which keep status as it was. (Simulated
 * controllers still recompute what they own, such as a deployment's replica counts.)
 */
final class StatusHandler implements ApiServer.SubresourceHandler {
    private final ObjectStore store;

    StatusHandler(ObjectStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    @Override
    public void handle(HttpExchange exchange, RequestInfo info, ResourceType type, UserInfo user) throws IOException {
        HttpRequest request = exchange.request();
        String namespace = type.namespaced() ? info.namespace() : "";
        String name = info.name();
        switch (info.verb()) {
            case "get" -> Responses.json(exchange, 200, store.get(type, namespace, name).orElseThrow(() -> type.notFound(name)));
            case "update", "patch" -> {
                ObjectStore.Written written = store.write(type, namespace, name, current -> {
                    ObjectNode live = current.orElseThrow(() -> type.notFound(name));
                    JsonNode changed = info.verb().equals("update") ? Json.parseObject(request.body()) : patched(live, request);
                    Preconditions.checkResourceVersion(type, name, live, changed);
                    ObjectNode result = live.deepCopy();
                    if (changed.has("status")) {
                        result.set("status", changed.get("status").deepCopy());
                    }
                    return result;
                }, ResourceHandler.dryRun(request));
                Responses.json(exchange, 200, written.object());
            }
            default -> throw ApiException.methodNotAllowed();
        }
    }

    private static JsonNode patched(ObjectNode live, HttpRequest request) {
        String contentType = request.header("content-type").orElse("").split(";")[0].strip();
        JsonNode patch = Json.parse(request.body());
        return switch (contentType) {
            case "application/merge-patch+json" -> Patches.mergePatch(live, patch);
            case "application/strategic-merge-patch+json" -> Patches.strategicMergePatch(live, patch);
            case "application/json-patch+json" -> Patches.jsonPatch(live, patch);
            default -> throw ApiException.unsupportedMediaType(contentType);
        };
    }
}
