package dev.klave.deploy;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The objects one kustomization renders, and what Klave's container would see of them. */
record Manifests(List<JsonNode> objects) {
    static final String CONTAINER = "klave";

    Manifests {
        objects = List.copyOf(requireNonNull(objects, "objects is null"));
    }

    List<JsonNode> all(String kind) {
        return objects.stream().filter(object -> object.path("kind").asText().equals(kind)).toList();
    }

    /** The one object of {@code kind}; fails when there is none or several. */
    JsonNode one(String kind) {
        List<JsonNode> found = all(kind);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + kind + ", found " + found.size());
        }
        return found.getFirst();
    }

    Optional<JsonNode> named(String kind, String name) {
        return all(kind).stream().filter(object -> object.at("/metadata/name").asText().equals(name)).findFirst();
    }

    JsonNode podSpec() {
        return one("Deployment").at("/spec/template/spec");
    }

    JsonNode container() {
        for (JsonNode container : podSpec().path("containers")) {
            if (container.path("name").asText().equals(CONTAINER)) {
                return container;
            }
        }
        throw new AssertionError("no container named " + CONTAINER);
    }

    /**
     * The environment Klave's container starts with, every reference resolved against the objects
     * rendered here (a Secret or ConfigMap they name but do not hold fails: the pod would not start).
     */
    Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        for (JsonNode source : container().path("envFrom")) {
            if (source.has("configMapRef")) {
                data("ConfigMap", source.at("/configMapRef/name").asText()).forEach(environment::put);
            } else if (source.has("secretRef")) {
                data("Secret", source.at("/secretRef/name").asText()).forEach(environment::put);
            }
        }
        for (JsonNode variable : container().path("env")) {
            environment.put(variable.path("name").asText(), value(variable));
        }
        return environment;
    }

    private String value(JsonNode variable) {
        if (variable.has("value")) {
            return variable.path("value").asText();
        }
        JsonNode secret = variable.at("/valueFrom/secretKeyRef");
        if (!secret.isMissingNode()) {
            return entry("Secret", secret.path("name").asText(), secret.path("key").asText());
        }
        JsonNode configMap = variable.at("/valueFrom/configMapKeyRef");
        if (!configMap.isMissingNode()) {
            return entry("ConfigMap", configMap.path("name").asText(), configMap.path("key").asText());
        }
        throw new AssertionError("variable without a value this test reads: " + variable);
    }

    /** One entry of a Secret (decoded) or a ConfigMap. */
    String entry(String kind, String name, String key) {
        String value = data(kind, name).get(key);
        if (value == null) {
            throw new AssertionError(kind + " " + name + " has no key " + key);
        }
        return value;
    }

    private Map<String, String> data(String kind, String name) {
        JsonNode object = named(kind, name).orElseThrow(() -> new AssertionError(kind + " " + name + " is not rendered"));
        Map<String, String> data = new LinkedHashMap<>();
        object.path("data").properties().forEach(field -> data.put(field.getKey(), kind.equals("Secret")
                ? new String(Base64.getMimeDecoder().decode(field.getValue().asText()), StandardCharsets.UTF_8)
                : field.getValue().asText()));
        object.path("stringData").properties().forEach(field -> data.put(field.getKey(), field.getValue().asText()));
        return data;
    }
}
