package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.gateway.ClusterExchange;
import dev.klave.gateway.Exchanged;
import dev.klave.kube.ClusterPath;
import dev.klave.kube.Method;
import dev.klave.messages.Text;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The read tools (spec 3 §4 "Tools"): each request they send is an audited request of the agent. */
final class ReadTools {
    static final int MAX_ROWS = 500;
    static final int MAX_LOG_LINES = 2000;

    private final Clusters clusters;
    private final LookalikeCredentials credentials;

    ReadTools(Clusters clusters, LookalikeCredentials credentials) {
        this.clusters = requireNonNull(clusters, "clusters is null");
        this.credentials = requireNonNull(credentials, "credentials is null");
    }

    ToolResult listApiResources(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        ClusterCalls calls = clusters.calls(call);
        List<Kind> kinds = new ArrayList<>(Kinds.discover(calls));
        kinds.sort(Comparator.comparing(Kind::group).thenComparing(Kind::plural));
        List<List<String>> lines = new ArrayList<>();
        lines.add(List.of("NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"));
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (Kind kind : kinds) {
            lines.add(List.of(kind.plural(), String.join(",", kind.shortNames()), kind.apiVersion(),
                    String.valueOf(kind.namespaced()), kind.kind()));
            ObjectNode entry = out.addObject().put("name", kind.plural()).put("apiVersion", kind.apiVersion())
                    .put("kind", kind.kind()).put("namespaced", kind.namespaced());
            kind.shortNames().forEach(entry.putArray("shortNames")::add);
        }
        ObjectNode structured = JsonNodeFactory.instance.objectNode();
        structured.set("resources", out);
        return ToolResult.Done.of(Output.cut(Tables.pad(lines), "the list is incomplete"), structured);
    }

    ToolResult listResources(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        Kind kind = Kinds.named(calls, arguments);
        String namespace = kind.namespaced() ? arguments.get(Catalogue.NAMESPACE_OR_ALL).orElse("") : "";
        Map<String, String> query = new LinkedHashMap<>();
        query.put("limit", String.valueOf(arguments.need(Catalogue.ROWS)));
        query.put("includeObject", "Metadata");
        arguments.get(Catalogue.LABEL_SELECTOR).ifPresent(value -> query.put("labelSelector", value));
        arguments.get(Catalogue.FIELD_SELECTOR).ifPresent(value -> query.put("fieldSelector", value));
        arguments.get(Catalogue.CONTINUE).ifPresent(value -> query.put("continue", value));
        Exchanged.Answered answered = calls.send(Method.GET, kind.collection(namespace), query,
                new ClusterExchange.Outgoing(Optional.empty(), Optional.empty(), ClusterCalls.TABLE));
        JsonNode table = ClusterCalls.json(answered);
        boolean allNamespaces = kind.namespaced() && namespace.isEmpty();
        String printed = table.path("rows").isEmpty() ? "No " + kind.plural() + " found"
                + (allNamespaces || !kind.namespaced() ? "." : " in namespace " + namespace + ".") + "\n"
                : Tables.print(table, allNamespaces);
        String next = table.path("metadata").path("continue").asText("");
        if (!next.isEmpty()) {
            printed += "\nMore rows: call again with continue=" + next + "\n";
        }
        ObjectNode structured = JsonNodeFactory.instance.objectNode();
        structured.put("kind", kind.kind()).put("apiVersion", kind.apiVersion()).put("rows", table.path("rows").size());
        structured.put("continue", next);
        return ToolResult.Done.of(Output.cut(printed, "ask for fewer rows with limit, then use continue"), structured);
    }

    ToolResult getResource(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        JsonNode object = calls.getJson(Kinds.target(calls, arguments).path(), Map.of());
        return ToolResult.Done.text(Output.cut(Yaml.write(credentials.json(shown(object))),
                "the object is too large to show whole"));
    }

    /**
     * An object as a tool shows it: without managedFields, every Secret's values hidden wherever
     * they are in the answer (spec 3 §8), a list's items included.
     */
    static JsonNode shown(JsonNode object) {
        JsonNode copy = object.deepCopy();
        if (copy.path("metadata") instanceof ObjectNode metadata) {
            metadata.remove("managedFields");
        }
        for (JsonNode item : copy.path("items")) {
            if (item.path("metadata") instanceof ObjectNode metadata) {
                metadata.remove("managedFields");
            }
        }
        return Redaction.everywhere(copy);
    }

    ToolResult getEvents(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        String namespace = arguments.get(Catalogue.NAMESPACE_OR_ALL).orElse("");
        Map<String, String> query = new LinkedHashMap<>();
        query.put("limit", String.valueOf(arguments.need(Catalogue.EVENTS)));
        arguments.get(Catalogue.EVENTS_OF).ifPresent(name -> query.put("fieldSelector",
                "involvedObject.name=" + Names.selectorValue(name)));
        ClusterPath path = namespace.isEmpty() ? ClusterPath.of("api", "v1", "events")
                : ClusterPath.of("api", "v1", "namespaces", namespace, "events");
        JsonNode list = calls.getJson(path, query);
        List<JsonNode> events = new ArrayList<>();
        list.path("items").forEach(events::add);
        events.sort(Comparator.comparing(ReadTools::lastSeen));
        List<List<String>> lines = new ArrayList<>();
        lines.add(namespace.isEmpty() ? List.of("NAMESPACE", "LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE")
                : List.of("LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"));
        for (JsonNode event : events) {
            List<String> line = new ArrayList<>();
            if (namespace.isEmpty()) {
                line.add(event.path("metadata").path("namespace").asText());
            }
            JsonNode involved = event.path("involvedObject");
            line.addAll(List.of(lastSeen(event), event.path("type").asText(), event.path("reason").asText(),
                    involved.path("kind").asText().toLowerCase(java.util.Locale.ROOT) + "/"
                            + involved.path("name").asText(),
                    credentials.text(event.path("message").asText().replace('\n', ' '))));
            lines.add(line);
        }
        String text = events.isEmpty() ? "No events." : Tables.pad(lines);
        return ToolResult.Done.text(Output.cut(text, "ask for fewer events with limit or name"));
    }

    private static String lastSeen(JsonNode event) {
        for (String field : List.of("lastTimestamp", "eventTime", "firstTimestamp")) {
            String value = event.path(field).asText("");
            if (!value.isEmpty()) {
                return value;
            }
        }
        return event.path("metadata").path("creationTimestamp").asText("");
    }

    ToolResult getLogs(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        String namespace = arguments.need(Catalogue.IN_NAMESPACE);
        String pod = arguments.need(Catalogue.POD);
        Map<String, String> query = new LinkedHashMap<>();
        Optional<String> container = arguments.get(Catalogue.CONTAINER);
        (container.isPresent() ? container : defaultContainer(calls, namespace, pod))
                .ifPresent(value -> query.put("container", value));
        query.put("tailLines", String.valueOf(arguments.need(Catalogue.TAIL_LINES)));
        arguments.get(Catalogue.SINCE_SECONDS).ifPresent(value -> query.put("sinceSeconds", String.valueOf(value)));
        if (arguments.isSet(Catalogue.PREVIOUS)) {
            query.put("previous", "true");
        }
        // Never follows (spec 3 §4): without follow=true the cluster answers and closes.
        Exchanged.Answered answered = calls.send(Method.GET, ClusterPath.of("api", "v1", "namespaces", namespace, "pods",
                pod, "log"), query,
                new ClusterExchange.Outgoing(Optional.empty(), Optional.empty(), "text/plain, */*"));
        List<String> lines = answered.text().lines().map(credentials::text).toList();
        if (lines.size() > MAX_LOG_LINES) {
            lines = lines.subList(lines.size() - MAX_LOG_LINES, lines.size());
        }
        String text = lines.isEmpty() ? "(the log is empty)" : String.join("\n", lines) + "\n";
        return ToolResult.Done.text(Output.cut(text, "ask for fewer lines with tail_lines or since_seconds"));
    }

    /** The annotation kubectl reads to pick a pod's container when none is named. */
    static final String DEFAULT_CONTAINER = "kubectl.kubernetes.io/default-container";

    /**
     * The container whose log is read when none is named, as kubectl picks it (issue 43): the pod's
     * default-container annotation when it names one of its containers, else its only container;
     * with several and no default, a tool error listing them — where a real API server answers 400.
     * Costs one more cluster request (the pod, audited) only when no container is named.
     */
    private static Optional<String> defaultContainer(ClusterCalls calls, String namespace, String pod)
            throws ToolError, ClusterRefusal, InterruptedException {
        JsonNode object = calls.getJson(ClusterPath.of("api", "v1", "namespaces", namespace, "pods", pod), Map.of());
        List<String> containers = new ArrayList<>();
        object.path("spec").path("containers").forEach(container -> containers.add(container.path("name").asText()));
        String named = object.path("metadata").path("annotations").path(DEFAULT_CONTAINER).asText("");
        if (containers.contains(named)) {
            return Optional.of(named);
        }
        if (containers.size() <= 1) {
            // None listed: the cluster decides (and says why if it cannot).
            return containers.stream().findFirst();
        }
        throw ToolError.argument(Catalogue.CONTAINER.name(), Text.ARGUMENT_CONTAINER_NEEDED,
                String.join(", ", containers));
    }

    ToolResult readSecret(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        JsonNode secret = calls.getJson(ClusterPath.of("api", "v1", "namespaces", arguments.need(Catalogue.IN_NAMESPACE),
                "secrets", arguments.need(Catalogue.NAME)), Map.of());
        ObjectNode values = JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> entries = secret.path("data").fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            values.put(entry.getKey(), decoded(entry.getValue().asText("")));
        }
        ObjectNode structured = JsonNodeFactory.instance.objectNode();
        structured.put("name", secret.path("metadata").path("name").asText());
        structured.put("type", secret.path("type").asText(""));
        structured.set("data", values);
        return ToolResult.Done.of(Output.cut(Yaml.json(values), "the Secret is too large to show whole"), structured);
    }

    /** A Secret value as text when it is UTF-8 text, else {@code base64:<data>} (spec 3 §4). */
    static String decoded(String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException notBase64) {
            return "base64:" + base64;
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            boolean printable = text.chars().allMatch(c -> c >= 0x20 || c == '\n' || c == '\r' || c == '\t');
            return printable ? text : "base64:" + base64;
        } catch (CharacterCodingException binary) {
            return "base64:" + base64;
        }
    }

    static String namespaceOf(Kind kind, Arguments arguments) throws ToolError {
        if (!kind.namespaced()) {
            return "";
        }
        return arguments.get(Catalogue.NAMESPACE).orElseThrow(() -> ToolError.argument(Catalogue.NAMESPACE.name(),
                Text.ARGUMENT_NAMESPACE_NEEDED, kind.plural()));
    }
}
