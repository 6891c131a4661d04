package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The REST verbs on a resource: get, list (selectors, pagination, Table), create, update, patch
 * (merge, strategic, JSON patch, server-side apply) and delete, each honouring {@code dryRun=All}.
 */
final class ResourceHandler {
    private final ObjectStore store;
    private final WatchStreamer watches;
    private final RbacEscalation escalation;

    ResourceHandler(ObjectStore store, WatchStreamer watches, RbacEscalation escalation) {
        this.store = requireNonNull(store, "store is null");
        this.watches = requireNonNull(watches, "watches is null");
        this.escalation = requireNonNull(escalation, "escalation is null");
    }

    void handle(HttpExchange exchange, RequestInfo info, ResourceType type, UserInfo user) throws IOException {
        HttpRequest request = exchange.request();
        String namespace = type.namespaced() ? info.namespace() : "";
        switch (info.verb()) {
            case "get" -> get(exchange, type, namespace, info.name());
            case "list" -> list(exchange, type, namespace);
            case "watch" -> watches.stream(exchange, type, namespace.isEmpty() ? Optional.empty() : Optional.of(namespace),
                    filter(request, info.name()));
            case "create" -> create(exchange, type, namespace, user);
            case "update" -> update(exchange, type, namespace, info.name(), user);
            case "patch" -> patch(exchange, type, namespace, info.name(), user);
            case "delete" -> delete(exchange, type, namespace, info.name());
            case "deletecollection" -> deleteCollection(exchange, type, namespace);
            default -> throw ApiException.methodNotAllowed();
        }
    }

    private void get(HttpExchange exchange, ResourceType type, String namespace, String name) throws IOException {
        ObjectNode object = store.get(type, namespace, name).orElseThrow(() -> type.notFound(name));
        if (Tables.wanted(exchange.request())) {
            String revision = Json.string(object, "metadata", "resourceVersion").orElse("");
            Responses.json(exchange, 200, Tables.table(type, List.of(object), revision, exchange.request(), store.now(), true));
            return;
        }
        Responses.json(exchange, 200, object);
    }

    private void list(HttpExchange exchange, ResourceType type, String namespace) throws IOException {
        HttpRequest request = exchange.request();
        ObjectStore.Snapshot snapshot = store.list(type, namespace.isEmpty() ? Optional.empty() : Optional.of(namespace));
        Predicate<ObjectNode> filter = filter(request, "");
        List<ObjectNode> matching = snapshot.items().stream().filter(filter).toList();
        Page page = Page.of(matching, request, snapshot.revision());
        if (Tables.wanted(request)) {
            ObjectNode table = Tables.table(type, page.items(), Long.toString(snapshot.revision()), request, store.now(), true);
            page.describe((ObjectNode) table.get("metadata"));
            Responses.json(exchange, 200, table);
            return;
        }
        ObjectNode list = Json.object();
        list.put("kind", type.kind() + "List");
        list.put("apiVersion", type.apiVersion());
        ObjectNode metadata = list.putObject("metadata");
        metadata.put("resourceVersion", Long.toString(snapshot.revision()));
        page.describe(metadata);
        list.putArray("items").addAll(page.items());
        Responses.json(exchange, 200, list);
    }

    private void create(HttpExchange exchange, ResourceType type, String namespace, UserInfo user) throws IOException {
        HttpRequest request = exchange.request();
        ObjectNode object = Json.parseObject(request.body());
        checkKind(type, object);
        ObjectNode metadata = Json.objectAt(object, "metadata");
        String bodyNamespace = Json.string(metadata, "namespace").orElse("");
        if (type.namespaced() && !bodyNamespace.isEmpty() && !bodyNamespace.equals(namespace)) {
            throw ApiException.badRequest("the namespace of the provided object does not match the namespace sent on the request");
        }
        if (type.namespaced()) {
            metadata.put("namespace", namespace);
        }
        if (Json.string(metadata, "name").isEmpty() && Json.string(metadata, "generateName").isPresent()) {
            metadata.put("name", Json.string(metadata, "generateName").get() + GeneratedNames.suffix());
        }
        metadata.remove("resourceVersion");
        escalation.check(user, type, namespace, object);
        FieldOwnership.recordUpdate(type, Optional.empty(), object, fieldManager(request), store.now());
        boolean dryRun = dryRun(request);
        ObjectStore.Written written = store.create(type, object, dryRun);
        started(type, written, dryRun);
        Responses.json(exchange, 201, written.object());
    }

    private void update(HttpExchange exchange, ResourceType type, String namespace, String name, UserInfo user)
            throws IOException {
        HttpRequest request = exchange.request();
        ObjectNode replacement = Json.parseObject(request.body());
        checkKind(type, replacement);
        String manager = fieldManager(request);
        ObjectStore.Written written = store.write(type, namespace, name, current -> {
            ObjectNode live = current.orElseThrow(() -> type.notFound(name));
            Preconditions.checkResourceVersion(type, name, live, replacement);
            keepServerOwned(live, replacement);
            escalation.check(user, type, namespace, replacement);
            FieldOwnership.recordUpdate(type, current, replacement, manager, store.now());
            return replacement;
        }, dryRun(request));
        Responses.json(exchange, 200, written.object());
    }

    private void patch(HttpExchange exchange, ResourceType type, String namespace, String name, UserInfo user)
            throws IOException {
        HttpRequest request = exchange.request();
        String contentType = request.header("content-type").orElse("").split(";")[0].strip();
        String manager = fieldManager(request);
        boolean force = request.flag("force");
        ObjectStore.Written written = store.write(type, namespace, name, current -> {
            if (contentType.equals("application/apply-patch+yaml")) {
                ObjectNode applied = Json.parseYamlObject(request.body());
                checkKind(type, applied);
                if (!request.queryParameter("fieldManager").isPresent()) {
                    throw ApiException.badRequest("PATCH /" + type.plural()
                            + ": fieldManager is required for apply requests");
                }
                current.ifPresent(live -> Preconditions.checkResourceVersion(type, name, live, applied));
                ObjectNode result = FieldOwnership.apply(type, name, current, applied, manager, force, store.now());
                current.ifPresent(live -> keepServerOwned(live, result));
                escalation.check(user, type, namespace, result);
                return result;
            }
            ObjectNode live = current.orElseThrow(() -> type.notFound(name));
            JsonNode patch = Json.parse(request.body());
            JsonNode patched = switch (contentType) {
                case "application/merge-patch+json" -> Patches.mergePatch(live, patch);
                case "application/strategic-merge-patch+json" -> Patches.strategicMergePatch(live, patch);
                case "application/json-patch+json" -> Patches.jsonPatch(live, patch);
                default -> throw ApiException.unsupportedMediaType(contentType);
            };
            if (!(patched instanceof ObjectNode result)) {
                throw ApiException.badRequest("the patch did not produce an object");
            }
            Preconditions.checkResourceVersion(type, name, live, result);
            keepServerOwned(live, result);
            escalation.check(user, type, namespace, result);
            FieldOwnership.recordUpdate(type, current, result, manager, store.now());
            return result;
        }, dryRun(request));
        if (written.created()) {
            started(type, written, dryRun(request));
        }
        Responses.json(exchange, written.created() ? 201 : 200, written.object());
    }

    /** A pod created any way (POST, or a server-side apply that creates it) gets its start events. */
    private void started(ResourceType type, ObjectStore.Written written, boolean dryRun) {
        if (type.equals(ResourceCatalog.PODS) && !dryRun) {
            PodEvents.started(written.object(), store.now()).forEach(event -> store.create(ResourceCatalog.EVENTS, event, false));
        }
    }

    private void delete(HttpExchange exchange, ResourceType type, String namespace, String name) throws IOException {
        HttpRequest request = exchange.request();
        JsonNode options = request.body().length > 0 ? Json.parse(request.body()) : Json.object();
        ObjectNode deleted = store.delete(type, namespace, name, dryRun(request),
                live -> Preconditions.checkDelete(type, name, live, options));
        Responses.json(exchange, 200, deleted);
    }

    private void deleteCollection(HttpExchange exchange, ResourceType type, String namespace) throws IOException {
        HttpRequest request = exchange.request();
        List<ObjectNode> deleted = store.deleteAll(type, namespace.isEmpty() ? Optional.empty() : Optional.of(namespace),
                filter(request, ""), dryRun(request));
        ObjectNode list = Json.object();
        list.put("kind", type.kind() + "List");
        list.put("apiVersion", type.apiVersion());
        list.putObject("metadata").put("resourceVersion", Long.toString(store.revision()));
        ArrayNode items = list.putArray("items");
        items.addAll(deleted);
        Responses.json(exchange, 200, list);
    }

    static Predicate<ObjectNode> filter(HttpRequest request, String name) {
        Predicate<ObjectNode> filter = object -> true;
        Optional<String> labels = request.queryParameter("labelSelector").filter(value -> !value.isBlank());
        if (labels.isPresent()) {
            filter = filter.and(Selectors.labels(labels.get()));
        }
        Optional<String> fields = request.queryParameter("fieldSelector").filter(value -> !value.isBlank());
        if (fields.isPresent()) {
            filter = filter.and(Selectors.fields(fields.get()));
        }
        if (!name.isEmpty()) {
            filter = filter.and(object -> name.equals(Json.string(object, "metadata", "name").orElse("")));
        }
        return filter;
    }

    /** {@code dryRun=All}: validate and answer as if written. Any other value is refused, as upstream. */
    static boolean dryRun(HttpRequest request) {
        List<String> values = request.queryParameters("dryRun");
        for (String value : values) {
            if (!value.equals("All")) {
                throw ApiException.badRequest("Invalid dry run value: dryRun: Unsupported value: \"" + value
                        + "\": supported values: \"All\"");
            }
        }
        if (!values.isEmpty()) {
            return true;
        }
        if (request.method().equals("DELETE") && request.body().length > 0) {
            JsonNode options = Json.parse(request.body());
            for (JsonNode value : options.path("dryRun")) {
                if (value.asText().equals("All")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The manager a write is recorded under: the query parameter, else the User-Agent's product. */
    static String fieldManager(HttpRequest request) {
        return request.queryParameter("fieldManager").filter(value -> !value.isBlank())
                .orElseGet(() -> request.header("user-agent").map(agent -> agent.split("/")[0]).orElse("unknown"));
    }

    private static void checkKind(ResourceType type, ObjectNode object) {
        String kind = Json.string(object, "kind").orElse(type.kind());
        String apiVersion = Json.string(object, "apiVersion").orElse(type.apiVersion());
        if (!kind.equals(type.kind()) || !apiVersion.equals(type.apiVersion())) {
            throw ApiException.badRequest("the API version in the data (" + apiVersion + ") does not match the expected API version ("
                    + type.apiVersion() + ")");
        }
    }

    /** Writes to the main resource do not change status or server-set metadata. */
    private static void keepServerOwned(ObjectNode live, ObjectNode next) {
        if (live.has("status")) {
            next.set("status", live.get("status").deepCopy());
        }
        ObjectNode metadata = Json.objectAt(next, "metadata");
        for (String field : List.of("uid", "creationTimestamp", "generation")) {
            if (live.path("metadata").has(field)) {
                metadata.set(field, live.path("metadata").get(field).deepCopy());
            }
        }
        if (!metadata.has("managedFields") && live.path("metadata").has("managedFields")) {
            metadata.set("managedFields", live.path("metadata").get("managedFields").deepCopy());
        }
    }
}
