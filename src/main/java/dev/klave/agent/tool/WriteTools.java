package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.kube.Method;
import dev.klave.kube.Query;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The write tools (spec 3 §4 "Tools"): each plans its request, then sends it at once, or holds it
 * for a person's approval ({@link HeldWrites}) when the agent's writes need one.
 */
final class WriteTools {
    static final String FIELD_MANAGER = "service-mcp";
    static final String RESTARTED_AT = "kubectl.kubernetes.io/restartedAt";
    private static final List<String> ROLLABLE = List.of("deployments", "statefulsets", "daemonsets");

    private final Clusters clusters;
    private final LookalikeCredentials credentials;
    private final HeldWrites held;
    private final Clock clock;

    WriteTools(Clusters clusters, HeldWrites held, LookalikeCredentials credentials, Clock clock) {
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.credentials = requireNonNull(credentials, "credentials is null");
        this.held = requireNonNull(held, "held is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    private ToolResult run(ToolCall call, ClusterCalls calls, Planned planned)
            throws ToolError, ClusterRefusal, InterruptedException {
        if (HeldWrites.resuming(call)) {
            return held.resume(call, calls, planned);
        }
        if (held.needed(call.agent(), calls, planned.namespace())) {
            return held.hold(call, calls, planned);
        }
        return ToolResult.Done.text(planned.renderer().render(ClusterCalls.json(
                HeldWrites.send(calls, planned.request()))));
    }

    /** Server-side apply, field manager {@code service-mcp}, never forced (spec 3 §4). */
    ToolResult apply(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        ObjectNode manifest = manifest(call.arguments().need(Catalogue.MANIFEST));
        ClusterCalls calls = clusters.calls(call);
        Kind kind = Kinds.resolve(calls, manifest.path("kind").asText(), Optional.of(manifest.path("apiVersion")
                .asText()));
        String name = Names.name(Catalogue.MANIFEST.name(), manifest.path("metadata").path("name").asText());
        String namespace = kind.namespaced() ? Names.namespace(Catalogue.MANIFEST.name(), manifest.path("metadata")
                .path("namespace").asText("default")) : "";
        Planned.Request request = new Planned.Request(Method.PATCH, kind.object(namespace, name),
                Query.NONE.with("fieldManager", FIELD_MANAGER), Optional.of(Yaml.compact(manifest)),
                Optional.of("application/apply-patch+yaml"));
        return run(call, calls, new Planned("apply", kind, namespace, name, request,
                (sent, dryRun, current) -> {
                    // Spec 3 §3: the approved apply fails with the cluster's 409 if the object
                    // changed after the dry run the person saw. The dry run was made against the
                    // object read just before it; its resourceVersion is the one to hold to (a dry
                    // run's own answer may name the version a write would have made).
                    String version = current.map(object -> object.path("metadata").path("resourceVersion")
                            .asText("")).orElse("");
                    if (version.isEmpty()) {
                        return sent;
                    }
                    ObjectNode pinned = manifest.deepCopy();
                    pinned.with("metadata").put("resourceVersion", version);
                    return sent.withBody(Yaml.compact(pinned));
                },
                answer -> Output.cut(Yaml.write(credentials.json(ReadTools.shown(answer))),
                        "the object is too large to show whole")));
    }

    /**
     * Part of one object changed (issue 43): a JSON merge patch (RFC 7386) or a strategic merge
     * patch, held like apply; the held request carries the resourceVersion of the object the
     * person saw, so it fails with the cluster's 409 if the object changed since.
     */
    ToolResult patch(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ObjectNode patch = oneObject(Catalogue.PATCH.name(), arguments.need(Catalogue.PATCH));
        String contentType = switch (arguments.get(Catalogue.PATCH_TYPE).orElse("merge")) {
            case "merge" -> "application/merge-patch+json";
            case "strategic" -> "application/strategic-merge-patch+json";
            default -> throw ToolError.argument(Catalogue.PATCH_TYPE.name(), Text.ARGUMENT_PATCH_TYPE);
        };
        ClusterCalls calls = clusters.calls(call);
        Kinds.Target target = Kinds.target(calls, arguments);
        Kind kind = target.kind();
        String namespace = target.namespace();
        String name = target.name();
        Planned.Request request = new Planned.Request(Method.PATCH, kind.object(namespace, name), Query.NONE,
                Optional.of(Yaml.compact(patch)), Optional.of(contentType));
        return run(call, calls, new Planned("patch", kind, namespace, name, request,
                (sent, dryRun, current) -> {
                    String version = current.map(object -> object.path("metadata").path("resourceVersion")
                            .asText("")).orElse("");
                    if (version.isEmpty()) {
                        return sent;
                    }
                    ObjectNode pinned = patch.deepCopy();
                    pinned.with("metadata").put("resourceVersion", version);
                    return sent.withBody(Yaml.compact(pinned));
                },
                answer -> Output.cut(Yaml.write(credentials.json(ReadTools.shown(answer))),
                        "the object is too large to show whole")));
    }

    ToolResult delete(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        Kinds.Target target = Kinds.target(calls, arguments);
        Kind kind = target.kind();
        String namespace = target.namespace();
        String name = target.name();
        Planned.Request request = new Planned.Request(Method.DELETE, kind.object(namespace, name), Query.NONE,
                Optional.empty(), Optional.empty());
        return run(call, calls, new Planned("delete", kind, namespace, name, request,
                (sent, dryRun, current) -> {
                    // Spec 3 §3: the approved delete fails with the cluster's 409 if the object
                    // was recreated (another uid) after the dry run.
                    String uid = current.map(object -> object.path("metadata").path("uid").asText("")).orElse("");
                    if (uid.isEmpty()) {
                        return sent;
                    }
                    ObjectNode options = JsonNodeFactory.instance.objectNode();
                    options.put("apiVersion", "v1").put("kind", "DeleteOptions").putObject("preconditions")
                            .put("uid", uid);
                    return new Planned.Request(sent.method(), sent.path(), sent.query(),
                            Optional.of(Yaml.compact(options)), Optional.of(ClusterCalls.JSON), sent.intent());
                },
                answer -> {
                    String text = kind.kind() + " " + name + " deleted" + (namespace.isEmpty() ? ""
                            : " from namespace " + namespace);
                    String pending = answer.path("metadata").path("deletionTimestamp").asText("");
                    return pending.isEmpty() ? text : text + " (deletion in progress: finalizers "
                            + answer.path("metadata").path("finalizers") + ")";
                }));
    }

    ToolResult scale(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        Kind kind = Kinds.named(calls, arguments);
        if (!kind.subresources().contains("scale")) {
            throw ToolError.argument(Catalogue.KIND.name(), Text.ARGUMENT_NO_SCALE, kind.plural());
        }
        String namespace = ReadTools.namespaceOf(kind, arguments);
        String name = arguments.need(Catalogue.NAME);
        long replicas = arguments.need(Catalogue.REPLICAS);
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.putObject("spec").put("replicas", replicas);
        Planned.Request request = new Planned.Request(Method.PATCH, kind.object(namespace, name, "scale"), Query.NONE,
                Optional.of(Yaml.compact(patch)), Optional.of("application/merge-patch+json"));
        return run(call, calls, new Planned("scale", kind, namespace, name, request, (sent, dryRun, current) -> sent,
                answer -> kind.plural() + "/" + name + " scaled to " + answer.path("spec").path("replicas").asLong()
                        + " replicas (" + answer.path("status").path("replicas").asLong() + " running now)"));
    }

    ToolResult rolloutRestart(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        Kind kind = Kinds.named(calls, arguments);
        if (!kind.group().equals("apps") || !ROLLABLE.contains(kind.plural())) {
            throw ToolError.of(Message.AGENT_NOT_ROLLABLE, Map.of("kind", kind.plural()));
        }
        String namespace = ReadTools.namespaceOf(kind, arguments);
        String name = arguments.need(Catalogue.NAME);
        String at = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.putObject("spec").putObject("template").putObject("metadata").putObject("annotations")
                .put(RESTARTED_AT, at);
        Planned.Request request = new Planned.Request(Method.PATCH, kind.object(namespace, name), Query.NONE,
                Optional.of(Yaml.compact(patch)), Optional.of("application/strategic-merge-patch+json"));
        return run(call, calls, new Planned("restart", kind, namespace, name, request, (sent, dryRun, current) -> sent,
                answer -> kind.plural() + "/" + name + " restarted: its pods are being replaced (restartedAt "
                        + answer.path("spec").path("template").path("metadata").path("annotations")
                                .path(RESTARTED_AT).asText(at) + ")"));
    }

    /** One object, in YAML or JSON, with apiVersion, kind and metadata.name. */
    static ObjectNode manifest(String text) throws ToolError {
        ObjectNode object = oneObject(Catalogue.MANIFEST.name(), text);
        if (object.path("apiVersion").asText("").isEmpty() || object.path("kind").asText("").isEmpty()
                || object.path("metadata").path("name").asText("").isEmpty()) {
            throw ToolError.argument("manifest", "le faltan apiVersion, kind o metadata.name");
        }
        return object;
    }

    /** Exactly one object, in YAML or JSON, as argument {@code name}. */
    private static ObjectNode oneObject(String name, String text) throws ToolError {
        List<JsonNode> documents;
        try {
            documents = Yaml.readAll(text);
        } catch (JsonProcessingException e) {
            throw ToolError.argument(name, Text.ARGUMENT_MANIFEST_UNREADABLE);
        }
        if (documents.size() != 1 || !(documents.get(0) instanceof ObjectNode object)) {
            throw ToolError.argument(name, Text.ARGUMENT_MANIFEST_NOT_ONE);
        }
        return object;
    }
}
