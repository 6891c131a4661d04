package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Direct access to the simulator's stored objects for tests: seed a cluster, read what a client
 * wrote. Objects are JSON trees; writes go through the same metadata rules as API writes and are
 * seen by watches.
 */
public final class SimulatorObjects {
    private final ObjectStore store;

    SimulatorObjects(ObjectStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    /** Creates or replaces an object given as JSON or YAML text with apiVersion, kind and metadata. */
    public ObjectNode put(String manifest) {
        requireNonNull(manifest, "manifest is null");
        return put(Json.parseYamlObject(manifest.getBytes(StandardCharsets.UTF_8)));
    }

    public ObjectNode put(ObjectNode object) {
        requireNonNull(object, "object is null");
        String apiVersion = Json.string(object, "apiVersion").orElseThrow(() -> new IllegalArgumentException("no apiVersion"));
        String kind = Json.string(object, "kind").orElseThrow(() -> new IllegalArgumentException("no kind"));
        ResourceType type = ResourceCatalog.byKind(apiVersion, kind)
                .orElseThrow(() -> new IllegalArgumentException("the simulator does not serve " + apiVersion + " " + kind));
        String namespace = type.namespaced() ? Json.string(object, "metadata", "namespace").orElse("default") : "";
        String name = Json.string(object, "metadata", "name").orElseThrow(() -> new IllegalArgumentException("no name"));
        ObjectNode copy = object.deepCopy();
        return store.write(type, namespace, name, current -> {
            current.ifPresent(live -> Json.objectAt(copy, "metadata").remove("resourceVersion"));
            return copy;
        }, false).object();
    }

    /** The stored object, e.g. {@code get("configmaps", "default", "settings")}. */
    public Optional<ObjectNode> get(String resource, String namespace, String name) {
        ResourceType type = type(resource);
        return store.get(type, type.namespaced() ? namespace : "", name);
    }

    public List<ObjectNode> list(String resource, String namespace) {
        ResourceType type = type(resource);
        return store.list(type, type.namespaced() && !namespace.isEmpty() ? Optional.of(namespace) : Optional.empty()).items();
    }

    public void delete(String resource, String namespace, String name) {
        ResourceType type = type(resource);
        store.delete(type, type.namespaced() ? namespace : "", name, false);
    }

    /** The current value of the global resourceVersion counter. */
    public long resourceVersion() {
        return store.revision();
    }

    private static ResourceType type(String resource) {
        return ResourceCatalog.byPlural(resource)
                .orElseThrow(() -> new IllegalArgumentException("the simulator does not serve " + resource));
    }
}
