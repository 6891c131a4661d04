package dev.klave.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Just enough OpenAPI v3 for kubectl. kubectl validates manifests on the server when the
 * group version's document shows a PATCH operation with the {@code fieldValidation} parameter
 * (cli-runtime queryParamVerifierV3); otherwise it downloads /openapi/v2 to validate on the client.
 * Serving that one marker keeps {@code kubectl apply} working without a schema; /openapi/v2 stays
 * 404, which kubectl tolerates once server-side validation is on. Without a strategic-merge
 * content type in the operation, kubectl computes apply patches from its built-in types.
 */
final class OpenApi {
    private static final String HASH = "0123456789ABCDEF";

    private OpenApi() {
    }

    static Optional<ObjectNode> document(String path) {
        if (path.equals("/openapi/v3") || path.equals("/openapi/v3/")) {
            return Optional.of(root());
        }
        if (!path.startsWith("/openapi/v3/")) {
            return Optional.empty();
        }
        String groupVersion = path.substring("/openapi/v3/".length());
        if (groupVersion.equals("api/v1")) {
            return Optional.of(groupVersion("", "v1"));
        }
        String[] parts = groupVersion.split("/");
        if (parts.length == 3 && parts[0].equals("apis") && !ResourceCatalog.inGroupVersion(parts[1], parts[2]).isEmpty()) {
            return Optional.of(groupVersion(parts[1], parts[2]));
        }
        return Optional.empty();
    }

    private static ObjectNode root() {
        ObjectNode root = Json.object();
        ObjectNode paths = root.putObject("paths");
        paths.putObject("api/v1").put("serverRelativeURL", "/openapi/v3/api/v1?hash=" + HASH);
        for (String group : ResourceCatalog.groups()) {
            paths.putObject("apis/" + group + "/v1").put("serverRelativeURL", "/openapi/v3/apis/" + group + "/v1?hash=" + HASH);
        }
        return root;
    }

    private static ObjectNode groupVersion(String group, String version) {
        ObjectNode document = Json.object();
        document.put("openapi", "3.0.0");
        ObjectNode info = document.putObject("info");
        info.put("title", "Kubernetes");
        info.put("version", "v1.32.0");
        ObjectNode paths = document.putObject("paths");
        for (ResourceType type : ResourceCatalog.inGroupVersion(group, version)) {
            String prefix = type.groupVersionPath() + (type.namespaced() ? "/namespaces/{namespace}/" : "/");
            ObjectNode patch = paths.putObject(prefix + type.plural() + "/{name}").putObject("patch");
            patch.put("operationId", "patch" + type.kind());
            ObjectNode gvk = patch.putObject("x-kubernetes-group-version-kind");
            gvk.put("group", group);
            gvk.put("version", version);
            gvk.put("kind", type.kind());
            ArrayNode parameters = patch.putArray("parameters");
            for (String parameter : new String[] {"dryRun", "fieldManager", "fieldValidation", "force"}) {
                ObjectNode entry = parameters.addObject();
                entry.put("name", parameter);
                entry.put("in", "query");
                entry.putObject("schema").put("type", "string");
            }
            patch.putObject("responses").putObject("200").put("description", "OK");
        }
        return document;
    }
}
