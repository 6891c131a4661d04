package dev.klave.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * The legacy discovery documents: /version, /api, /apis and each group version's resource list,
 * for clients that do not ask for the aggregated form ({@link AggregatedDiscovery}).
 */
final class Discovery {
    private final String serverAddress;

    Discovery(String serverAddress) {
        this.serverAddress = serverAddress;
    }

    Optional<ObjectNode> document(String path) {
        return document(path, "32");
    }

    /** @param minor the server's Kubernetes minor version, as /version says it (1.{@code minor}.0) */
    Optional<ObjectNode> document(String path, String minor) {
        String trimmed = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        if (trimmed.equals("/version")) {
            return Optional.of(version(minor));
        }
        if (trimmed.equals("/api")) {
            return Optional.of(coreVersions());
        }
        if (trimmed.equals("/apis")) {
            return Optional.of(groupList());
        }
        if (trimmed.equals("/api/v1")) {
            return Optional.of(resourceList("", "v1"));
        }
        String[] parts = trimmed.split("/");
        if (parts.length == 3 && parts[1].equals("apis") && ResourceCatalog.groups().contains(parts[2])) {
            return Optional.of(group(parts[2]));
        }
        if (parts.length == 4 && parts[1].equals("apis") && ResourceCatalog.groups().contains(parts[2]) && parts[3].equals("v1")) {
            return Optional.of(resourceList(parts[2], parts[3]));
        }
        return Optional.empty();
    }

    private static ObjectNode version(String minor) {
        ObjectNode version = Json.object();
        version.put("major", "1");
        version.put("minor", minor);
        version.put("gitVersion", "v1." + minor + ".0");
        version.put("gitCommit", "klave-cluster-simulator");
        version.put("gitTreeState", "clean");
        version.put("buildDate", "2024-12-11T18:04:20Z");
        version.put("goVersion", "go1.23.3");
        version.put("compiler", "gc");
        version.put("platform", "linux/amd64");
        return version;
    }

    private ObjectNode coreVersions() {
        ObjectNode versions = Json.object();
        versions.put("kind", "APIVersions");
        versions.putArray("versions").add("v1");
        ObjectNode address = versions.putArray("serverAddressByClientCIDRs").addObject();
        address.put("clientCIDR", "0.0.0.0/0");
        address.put("serverAddress", serverAddress);
        return versions;
    }

    private static ObjectNode groupList() {
        ObjectNode list = Json.object();
        list.put("kind", "APIGroupList");
        list.put("apiVersion", "v1");
        ArrayNode groups = list.putArray("groups");
        for (String group : ResourceCatalog.groups()) {
            groups.add(groupEntry(group));
        }
        return list;
    }

    private static ObjectNode group(String name) {
        ObjectNode group = groupEntry(name);
        group.put("kind", "APIGroup");
        group.put("apiVersion", "v1");
        return group;
    }

    private static ObjectNode groupEntry(String name) {
        ObjectNode group = Json.object();
        group.put("name", name);
        ObjectNode version = Json.object();
        version.put("groupVersion", name + "/v1");
        version.put("version", "v1");
        group.putArray("versions").add(version);
        group.set("preferredVersion", version.deepCopy());
        return group;
    }

    private static ObjectNode resourceList(String group, String version) {
        ObjectNode list = Json.object();
        list.put("kind", "APIResourceList");
        list.put("apiVersion", "v1");
        list.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        ArrayNode resources = list.putArray("resources");
        for (ResourceType type : ResourceCatalog.inGroupVersion(group, version)) {
            ObjectNode resource = resources.addObject();
            resource.put("name", type.plural());
            resource.put("singularName", type.singular());
            resource.put("namespaced", type.namespaced());
            resource.put("kind", type.kind());
            fill(resource.putArray("verbs"), type.verbs());
            if (!type.shortNames().isEmpty()) {
                fill(resource.putArray("shortNames"), type.shortNames());
            }
            if (!type.categories().isEmpty()) {
                fill(resource.putArray("categories"), type.categories());
            }
            for (ResourceCatalog.Subresource sub : ResourceCatalog.SUBRESOURCES) {
                if (!sub.parent().equals(type)) {
                    continue;
                }
                ObjectNode entry = resources.addObject();
                entry.put("name", type.plural() + "/" + sub.name());
                entry.put("singularName", "");
                entry.put("namespaced", type.namespaced());
                if (!sub.group().isEmpty()) {
                    entry.put("group", sub.group());
                    entry.put("version", sub.version());
                }
                entry.put("kind", sub.kind());
                fill(entry.putArray("verbs"), sub.verbs());
            }
        }
        return list;
    }

    private static void fill(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }
}
