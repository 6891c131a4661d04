package dev.klave.agent.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The preview a person reads before approving a held write (spec 3 §4 "Write approval flow" 2):
 * the object as it is and as the dry run says it would be, Secret values hidden, and the list of
 * values the write changes. Bookkeeping the cluster changes on every write (resourceVersion,
 * generation, managedFields) is left out of the list.
 */
final class Previews {
    private static final Set<String> BOOKKEEPING = Set.of("metadata.resourceVersion", "metadata.generation",
            "metadata.managedFields", "metadata.creationTimestamp", "metadata.uid");

    private Previews() {}

    static ObjectNode of(String cluster, Planned planned, Optional<JsonNode> current, Optional<JsonNode> result) {
        ObjectNode preview = JsonNodeFactory.instance.objectNode();
        preview.put("cluster", cluster).put("namespace", planned.namespace()).put("verb", planned.verb())
                .put("resource", planned.kind().plural()).put("name", planned.name());
        Optional<JsonNode> shownBefore = current.map(ReadTools::shown);
        Optional<JsonNode> shownAfter = result.map(after -> {
            JsonNode shown = ReadTools.shown(after);
            return Redaction.secret(after) ? Redaction.redact(stripped(after), current) : shown;
        });
        preview.set("current", shownBefore.orElse(NullNode.instance));
        preview.set("result", shownAfter.orElse(NullNode.instance));
        ArrayNode changes = preview.putArray("changes");
        if (shownAfter.isPresent()) {
            diff("", shownBefore.orElse(NullNode.instance), shownAfter.get(), changes);
        }
        return preview;
    }

    private static JsonNode stripped(JsonNode object) {
        JsonNode copy = object.deepCopy();
        if (copy.path("metadata") instanceof ObjectNode metadata) {
            metadata.remove("managedFields");
        }
        return copy;
    }

    private static void diff(String path, JsonNode before, JsonNode after, ArrayNode changes) {
        if (BOOKKEEPING.contains(path) || before.equals(after)) {
            return;
        }
        if (before.isObject() && after.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            before.fieldNames().forEachRemaining(names::add);
            after.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                diff(path.isEmpty() ? name : path + "." + name, before.path(name).isMissingNode() ? NullNode.instance
                        : before.get(name), after.path(name).isMissingNode() ? NullNode.instance : after.get(name),
                        changes);
            }
            return;
        }
        if (path.isEmpty() && before.isNull()) {
            // A creation: every top-level field is new.
            for (Iterator<String> names = after.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                diff(name, NullNode.instance, after.get(name), changes);
            }
            return;
        }
        ObjectNode change = changes.addObject();
        change.put("path", path);
        change.set("before", before);
        change.set("after", after);
    }
}
