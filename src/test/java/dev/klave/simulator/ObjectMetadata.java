package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The metadata rules the apiserver applies on every write: identity fields come from the server
 * (uid, creationTimestamp, generation), the name must be valid, and the simulated controllers
 * fill in status (see {@link ObjectDefaults}).
 */
final class ObjectMetadata {
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final String DNS_SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case "
            + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
            + "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

    private ObjectMetadata() {
    }

    static ObjectNode finish(ResourceType type, String namespace, String name, Optional<ObjectNode> current,
            ObjectNode next, Clock clock) {
        next.put("apiVersion", type.apiVersion());
        next.put("kind", type.kind());
        ObjectNode metadata = Json.objectAt(next, "metadata");
        validateName(type, name, Json.string(metadata, "name").orElse(""));
        metadata.put("name", name);
        if (type.namespaced()) {
            metadata.put("namespace", namespace);
        } else {
            metadata.remove("namespace");
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        if (current.isPresent()) {
            ObjectNode old = (ObjectNode) current.get().get("metadata");
            metadata.set("uid", old.get("uid"));
            metadata.set("creationTimestamp", old.get("creationTimestamp"));
            if (old.has("generation")) {
                long generation = old.get("generation").asLong();
                // Compared once defaulted: an apply that leaves out a defaulted field changes nothing.
                ObjectNode defaulted = next.deepCopy();
                ObjectDefaults.apply(type, defaulted, now);
                boolean specChanged = !Objects.equals(current.get().get("spec"), defaulted.get("spec"));
                metadata.put("generation", specChanged ? generation + 1 : generation);
            }
        } else {
            metadata.put("uid", UUID.randomUUID().toString());
            metadata.put("creationTimestamp", now.toString());
            if (next.has("spec")) {
                metadata.put("generation", 1);
            }
        }
        for (String field : new String[] {"labels", "annotations"}) {
            JsonNode value = metadata.get(field);
            if (value != null && (value.isNull() || value.isEmpty())) {
                metadata.remove(field);
            }
        }
        ObjectDefaults.apply(type, next, now);
        return next;
    }

    private static void validateName(ResourceType type, String name, String nameInBody) {
        if (name.isEmpty()) {
            throw ApiException.invalid(type.group(), type.kind(), name, "metadata.name",
                    "Required value: name or generateName is required");
        }
        if (!nameInBody.isEmpty() && !nameInBody.equals(name)) {
            throw ApiException.badRequest("the name of the object (" + nameInBody
                    + ") does not match the name on the URL (" + name + ")");
        }
        // RBAC objects are named by path segments (system:discovery), not DNS names.
        if (type.group().equals("rbac.authorization.k8s.io")) {
            return;
        }
        if (name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            throw ApiException.invalid(type.group(), type.kind(), name, "metadata.name",
                    "Invalid value: \"" + name + "\": " + DNS_SUBDOMAIN_MESSAGE);
        }
    }
}
