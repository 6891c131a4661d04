package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.messages.Message;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One argument of a tool: its JSON Schema and the check a call's value passes, from one
 * definition, so that what {@code tools/list} promises is what a call is held to.
 */
public record Parameter(String name, Type type, String description, boolean required, OptionalLong minimum,
        OptionalLong maximum, Optional<Object> defaultValue, OptionalLong maxLength, Optional<Message> outOfBounds) {
    public enum Type {
        STRING("string"),
        INTEGER("integer"),
        BOOLEAN("boolean");

        final String json;

        Type(String json) {
            this.json = json;
        }
    }

    public Parameter {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(description, "description is null");
        requireNonNull(minimum, "minimum is null");
        requireNonNull(maximum, "maximum is null");
        requireNonNull(defaultValue, "defaultValue is null");
        requireNonNull(maxLength, "maxLength is null");
        requireNonNull(outOfBounds, "outOfBounds is null");
    }

    public static Parameter text(String name, String description) {
        return new Parameter(name, Type.STRING, description, false, OptionalLong.empty(), OptionalLong.empty(),
                Optional.empty(), OptionalLong.empty(), Optional.empty());
    }

    public static Parameter integer(String name, String description, long minimum, long maximum) {
        return new Parameter(name, Type.INTEGER, description, false, OptionalLong.of(minimum), OptionalLong.of(maximum),
                Optional.empty(), OptionalLong.empty(), Optional.empty());
    }

    public static Parameter flag(String name, String description) {
        return new Parameter(name, Type.BOOLEAN, description, false, OptionalLong.empty(), OptionalLong.empty(),
                Optional.empty(), OptionalLong.empty(), Optional.empty());
    }

    public Parameter mandatory() {
        return new Parameter(name, type, description, true, minimum, maximum, defaultValue, maxLength, outOfBounds);
    }

    public Parameter byDefault(Object value) {
        return new Parameter(name, type, description, required, minimum, maximum, Optional.of(value), maxLength,
                outOfBounds);
    }

    public Parameter atMost(long length) {
        return new Parameter(name, type, description, required, minimum, maximum, defaultValue,
                OptionalLong.of(length), outOfBounds);
    }

    /**
     * A value out of bounds (or a required one missing) is refused with {@code message}, whose
     * one parameter is {@code max} (spec 3 §7: {@code agent.access_bad_minutes}, {@code agent.access_reason}).
     */
    public Parameter refusedWith(Message message) {
        return new Parameter(name, type, description, required, minimum, maximum, defaultValue, maxLength,
                Optional.of(message));
    }

    /** The refusal of a value out of bounds. */
    ToolError outOfBounds(String why) {
        if (outOfBounds.isPresent()) {
            long max = maximum.isPresent() ? maximum.getAsLong() : maxLength.orElse(0);
            return ToolError.of(outOfBounds.get(), java.util.Map.of("max", max));
        }
        return ToolError.argument(name, why);
    }

    /** The property's JSON Schema (2020-12, as MCP tool input schemas are read). */
    ObjectNode schema() {
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        schema.put("type", type.json);
        schema.put("description", description);
        minimum.ifPresent(value -> schema.put("minimum", value));
        maximum.ifPresent(value -> schema.put("maximum", value));
        maxLength.ifPresent(value -> schema.put("maxLength", value));
        defaultValue.ifPresent(value -> schema.set("default", JsonNodeFactory.instance.pojoNode(value)));
        return schema;
    }
}
