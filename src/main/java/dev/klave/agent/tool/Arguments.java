package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.kube.KubeNames;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A call's arguments, checked against the tool's parameters before its handler runs: no unknown
 * name, each value of its type and within its bounds, every required one present. A value of the
 * wrong kind is refused rather than coerced (spec 3 §4: "Arguments are strings unless marked").
 */
public final class Arguments {
    private final ObjectNode values;
    private final Map<String, Parameter> parameters;

    private Arguments(ObjectNode values, Map<String, Parameter> parameters) {
        this.values = values;
        this.parameters = parameters;
    }

    static Arguments check(JsonNode given, List<Parameter> declared) throws ToolError {
        ObjectNode values = JsonNodeFactory.instance.objectNode();
        if (given != null && !given.isNull()) {
            if (!given.isObject()) {
                throw ToolError.argument("arguments", "debe ser un objeto JSON");
            }
            values = ((ObjectNode) given).deepCopy();
        }
        Map<String, Parameter> byName = new java.util.LinkedHashMap<>();
        declared.forEach(parameter -> byName.put(parameter.name(), parameter));
        for (Iterator<String> names = values.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!byName.containsKey(name)) {
                throw ToolError.argument(name, "esta herramienta no lo admite");
            }
        }
        for (Parameter parameter : declared) {
            JsonNode value = values.get(parameter.name());
            if (value == null || value.isNull()) {
                if (parameter.required()) {
                    throw parameter.outOfBounds("es obligatorio");
                }
                values.remove(parameter.name());
                continue;
            }
            checkValue(parameter, value);
        }
        return new Arguments(values, byName);
    }

    private static void checkValue(Parameter parameter, JsonNode value) throws ToolError {
        switch (parameter.type()) {
            case STRING -> {
                if (!value.isTextual() || !KubeNames.wellFormed(value.asText())) {
                    throw ToolError.argument(parameter.name(), "debe ser un texto");
                }
                OptionalLong most = parameter.maxLength();
                if (most.isPresent() && value.asText().codePointCount(0, value.asText().length()) > most.getAsLong()) {
                    throw parameter.outOfBounds("tiene más de " + most.getAsLong() + " caracteres");
                }
            }
            case INTEGER -> {
                if (!value.isIntegralNumber() || !value.canConvertToLong()) {
                    throw ToolError.argument(parameter.name(), "debe ser un número entero");
                }
                long number = value.asLong();
                if (parameter.minimum().isPresent() && number < parameter.minimum().getAsLong()
                        || parameter.maximum().isPresent() && number > parameter.maximum().getAsLong()) {
                    throw parameter.outOfBounds("debe estar entre " + parameter.minimum().getAsLong() + " y "
                            + parameter.maximum().getAsLong());
                }
            }
            case BOOLEAN -> {
                if (!value.isBoolean()) {
                    throw ToolError.argument(parameter.name(), "debe ser true o false");
                }
            }
        }
    }

    /** A text argument; empty when absent or empty. */
    public Optional<String> text(String name) {
        known(name);
        JsonNode value = values.get(name);
        return value == null || value.asText().isEmpty() ? Optional.empty() : Optional.of(value.asText());
    }

    /** A required text argument (present and not empty). */
    public String need(String name) throws ToolError {
        return text(name).orElseThrow(() -> ToolError.argument(name, "es obligatorio"));
    }

    public Optional<Long> integer(String name) {
        known(name);
        JsonNode value = values.get(name);
        if (value != null) {
            return Optional.of(value.asLong());
        }
        return parameters.get(name).defaultValue().map(number -> ((Number) number).longValue());
    }

    public boolean flag(String name) {
        known(name);
        JsonNode value = values.get(name);
        return value != null && value.asBoolean();
    }

    /** The arguments as given (after the checks), for the identity of a held write. */
    public ObjectNode asJson() {
        return values.deepCopy();
    }

    private void known(String name) {
        requireNonNull(name, "name is null");
        if (!parameters.containsKey(name)) {
            throw new IllegalArgumentException("not a parameter of this tool: " + name);
        }
    }
}
