package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.messages.Text;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A call's arguments, checked against the tool's parameters before its handler runs: no unknown
 * name, each value of its type and shape and within its bounds, every required one present. A value
 * of the wrong kind is refused rather than coerced (spec 3 §4: "Arguments are strings unless
 * marked"). A handler reads them typed, by the {@link Parameter} its tool declared.
 */
public final class Arguments {
    private final ObjectNode given;
    private final Map<String, Parameter<?>> declared;
    private final Map<String, Object> values;

    private Arguments(ObjectNode given, Map<String, Parameter<?>> declared, Map<String, Object> values) {
        this.given = given;
        this.declared = declared;
        this.values = values;
    }

    static Arguments check(JsonNode given, List<Parameter<?>> parameters) throws ToolError {
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        if (given != null && !given.isNull()) {
            if (!given.isObject()) {
                throw ToolError.argument("arguments", Text.ARGUMENT_NOT_OBJECT);
            }
            copy = ((ObjectNode) given).deepCopy();
        }
        Map<String, Parameter<?>> byName = new LinkedHashMap<>();
        parameters.forEach(parameter -> byName.put(parameter.name(), parameter));
        for (Iterator<String> names = copy.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!byName.containsKey(name)) {
                throw ToolError.argument(name, Text.ARGUMENT_NOT_ACCEPTED);
            }
        }
        Map<String, Object> values = new HashMap<>();
        for (Parameter<?> parameter : parameters) {
            Optional<?> value = parameter.read(copy.get(parameter.name()));
            if (value.isPresent()) {
                values.put(parameter.name(), value.get());
            } else {
                copy.remove(parameter.name());
            }
        }
        return new Arguments(copy, byName, values);
    }

    /** The value given, or the parameter's default; empty when neither. */
    public <T> Optional<T> get(Parameter<T> parameter) {
        declared(parameter);
        Object value = values.get(parameter.name());
        return value == null ? parameter.defaultValue() : Optional.of(parameter.form().type().cast(value));
    }

    /** The value of a parameter that always has one: a mandatory one, or one with a default. */
    public <T> T need(Parameter<T> parameter) {
        if (!parameter.required() && parameter.defaultValue().isEmpty()) {
            throw new IllegalArgumentException(parameter.name() + " is optional and has no default");
        }
        return get(parameter).orElseThrow(() -> new IllegalStateException(parameter.name() + " was checked"));
    }

    /** Whether a flag was given as {@code true}. */
    public boolean isSet(Parameter<Boolean> flag) {
        return get(flag).orElse(false);
    }

    /** The arguments as given (after the checks), for the identity of a held write. */
    public ObjectNode asJson() {
        return given.deepCopy();
    }

    /** A handler reads only what its tool declared, as declared: one definition of each parameter. */
    private void declared(Parameter<?> parameter) {
        requireNonNull(parameter, "parameter is null");
        if (!parameter.equals(declared.get(parameter.name()))) {
            throw new IllegalArgumentException("not a parameter of this tool as declared: " + parameter.name());
        }
    }
}
