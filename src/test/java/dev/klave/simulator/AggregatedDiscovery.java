package dev.klave.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * Aggregated discovery (apidiscovery.k8s.io/v2, KEP-3352): /api and /apis answer every group,
 * version and resource in one document when the client asks for it in Accept, as kube-apiserver
 * 1.32 does. kubectl then needs two requests instead of one per group version.
 */
final class AggregatedDiscovery {
    static final String CONTENT_TYPE = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

    private AggregatedDiscovery() {
    }

    static boolean wanted(HttpRequest request) {
        return request.header("accept").map(accept -> accept.contains("g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"))
                .orElse(false);
    }

    /** The document's entity tag: its SHA-256, quoted (RFC 9110 §8.8.3). */
    static String etag(byte[] document) {
        try {
            return "\"" + java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(document)) + "\"";
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static Optional<ObjectNode> document(String path, boolean metrics) {
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        if (trimmed.equals("/api")) {
            return Optional.of(list(List.of("")));
        }
        if (trimmed.equals("/apis")) {
            return Optional.of(list(ResourceCatalog.groups().stream()
                    .filter(group -> metrics || !group.equals(ResourceCatalog.POD_METRICS.group())).toList()));
        }
        return Optional.empty();
    }

    private static ObjectNode list(List<String> groups) {
        ObjectNode list = Json.object();
        list.put("kind", "APIGroupDiscoveryList");
        list.put("apiVersion", "apidiscovery.k8s.io/v2");
        list.putObject("metadata");
        ArrayNode items = list.putArray("items");
        for (String group : groups) {
            ObjectNode item = items.addObject();
            item.putObject("metadata").put("name", group);
            ArrayNode versions = item.putArray("versions");
            for (String name : group.isEmpty() ? List.of("v1") : ResourceCatalog.versions(group)) {
                ObjectNode version = versions.addObject();
                version.put("version", name);
                ArrayNode resources = version.putArray("resources");
                for (ResourceType type : ResourceCatalog.inGroupVersion(group, name)) {
                    resources.add(resource(type));
                }
                version.put("freshness", "Current");
            }
        }
        return list;
    }

    private static ObjectNode resource(ResourceType type) {
        ObjectNode resource = Json.object();
        resource.put("resource", type.plural());
        resource.set("responseKind", kind(type.group(), type.version(), type.kind()));
        resource.put("scope", type.namespaced() ? "Namespaced" : "Cluster");
        resource.put("singularResource", type.singular());
        type.verbs().forEach(resource.putArray("verbs")::add);
        if (!type.shortNames().isEmpty()) {
            type.shortNames().forEach(resource.putArray("shortNames")::add);
        }
        if (!type.categories().isEmpty()) {
            type.categories().forEach(resource.putArray("categories")::add);
        }
        ArrayNode subresources = Json.array();
        for (ResourceCatalog.Subresource sub : ResourceCatalog.SUBRESOURCES) {
            if (!sub.parent().equals(type)) {
                continue;
            }
            ObjectNode entry = subresources.addObject();
            entry.put("subresource", sub.name());
            entry.set("responseKind", kind(sub.group().isEmpty() ? type.group() : sub.group(),
                    sub.version().isEmpty() ? type.version() : sub.version(), sub.kind()));
            sub.verbs().forEach(entry.putArray("verbs")::add);
        }
        if (!subresources.isEmpty()) {
            resource.set("subresources", subresources);
        }
        return resource;
    }

    private static ObjectNode kind(String group, String version, String kind) {
        ObjectNode responseKind = Json.object();
        responseKind.put("group", group);
        responseKind.put("version", version);
        responseKind.put("kind", kind);
        return responseKind;
    }
}
