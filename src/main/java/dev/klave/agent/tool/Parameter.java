package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.kube.KubeNames;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One argument of a tool, declared once: its JSON Schema, the checks a call's value passes, and the
 * typed value a handler reads ({@code arguments.need(REPLICAS)} is a {@code Long}), so that what
 * {@code tools/list} promises is what a call is held to and no handler reads an argument by its
 * name or checks it again.
 *
 * @param <T> the value's Java type
 * @param outOfBounds the refusal of a value out of bounds, or of a required one missing, when the
 *     specification names one (its one parameter is {@code max})
 */
public record Parameter<T>(String name, Form<T> form, String description, boolean required, OptionalLong minimum,
        OptionalLong maximum, Optional<T> defaultValue, OptionalLong maxLength, Optional<Message> outOfBounds) {

    /** What a value is: its JSON type, the rule it passes, and the Java value it becomes. */
    public enum Shape {
        /** Any text (the schema's {@code string}). */
        TEXT("string"),
        /** A Kubernetes object name, to be a segment of an API path ({@link KubeNames#isPathSegment}). */
        OBJECT_NAME("string"),
        /** A namespace (RFC 1123 label, {@link KubeNames#isNamespace}). */
        NAMESPACE("string"),
        INTEGER("integer"),
        BOOLEAN("boolean");

        final String json;

        Shape(String json) {
            this.json = json;
        }
    }

    /** A shape and the Java type its values have. */
    public record Form<T>(Shape shape, Class<T> type) {
        static final Form<String> TEXT = new Form<>(Shape.TEXT, String.class);
        static final Form<String> OBJECT_NAME = new Form<>(Shape.OBJECT_NAME, String.class);
        static final Form<String> NAMESPACE = new Form<>(Shape.NAMESPACE, String.class);
        static final Form<Long> INTEGER = new Form<>(Shape.INTEGER, Long.class);
        static final Form<Boolean> BOOLEAN = new Form<>(Shape.BOOLEAN, Boolean.class);

        public Form {
            requireNonNull(shape, "shape is null");
            requireNonNull(type, "type is null");
        }
    }

    public Parameter {
        requireNonNull(name, "name is null");
        requireNonNull(form, "form is null");
        requireNonNull(description, "description is null");
        requireNonNull(minimum, "minimum is null");
        requireNonNull(maximum, "maximum is null");
        requireNonNull(defaultValue, "defaultValue is null");
        requireNonNull(maxLength, "maxLength is null");
        requireNonNull(outOfBounds, "outOfBounds is null");
        if (form.shape() == Shape.INTEGER && (minimum.isEmpty() || maximum.isEmpty())) {
            throw new IllegalArgumentException("an integer parameter has bounds: " + name);
        }
    }

    public static Parameter<String> text(String name, String description) {
        return of(name, Form.TEXT, description);
    }

    /** An object's name, checked before it can become a segment of an API path. */
    public static Parameter<String> objectName(String name, String description) {
        return of(name, Form.OBJECT_NAME, description);
    }

    public static Parameter<String> namespace(String name, String description) {
        return of(name, Form.NAMESPACE, description);
    }

    public static Parameter<Long> integer(String name, String description, long minimum, long maximum) {
        return new Parameter<>(name, Form.INTEGER, description, false, OptionalLong.of(minimum),
                OptionalLong.of(maximum), Optional.empty(), OptionalLong.empty(), Optional.empty());
    }

    public static Parameter<Boolean> flag(String name, String description) {
        return of(name, Form.BOOLEAN, description);
    }

    private static <T> Parameter<T> of(String name, Form<T> form, String description) {
        return new Parameter<>(name, form, description, false, OptionalLong.empty(), OptionalLong.empty(),
                Optional.empty(), OptionalLong.empty(), Optional.empty());
    }

    /** A call without it is refused; an empty or blank text counts as missing. */
    public Parameter<T> mandatory() {
        return new Parameter<>(name, form, description, true, minimum, maximum, defaultValue, maxLength, outOfBounds);
    }

    public Parameter<T> byDefault(T value) {
        return new Parameter<>(name, form, description, required, minimum, maximum, Optional.of(value), maxLength,
                outOfBounds);
    }

    public Parameter<T> atMost(long length) {
        return new Parameter<>(name, form, description, required, minimum, maximum, defaultValue,
                OptionalLong.of(length), outOfBounds);
    }

    /**
     * A value out of bounds (or a required one missing) is refused with {@code message}, whose
     * one parameter is {@code max} (spec 3 §7: {@code agent.access_bad_minutes}, {@code agent.access_reason}).
     */
    public Parameter<T> refusedWith(Message message) {
        return new Parameter<>(name, form, description, required, minimum, maximum, defaultValue, maxLength,
                Optional.of(message));
    }

    /**
     * The value a call gave, checked; empty when it gave none (null, or an empty text).
     *
     * @throws ToolError {@code agent.argument_invalid} naming this parameter, or its own refusal
     */
    Optional<T> read(JsonNode value) throws ToolError {
        if (value == null || value.isNull() || value.isTextual() && missingText(value.asText())) {
            if (required) {
                throw outOfBounds(Text.ARGUMENT_REQUIRED.text());
            }
            return Optional.empty();
        }
        Object read = switch (form.shape()) {
            case TEXT, OBJECT_NAME, NAMESPACE -> text(value);
            case INTEGER -> integer(value);
            case BOOLEAN -> {
                if (!value.isBoolean()) {
                    throw ToolError.argument(name, Text.ARGUMENT_NOT_BOOLEAN);
                }
                yield value.asBoolean();
            }
        };
        return Optional.of(form.type().cast(read));
    }

    private boolean missingText(String text) {
        return text.isEmpty() || required && text.isBlank();
    }

    private String text(JsonNode value) throws ToolError {
        if (!value.isTextual() || !KubeNames.wellFormed(value.asText())) {
            throw ToolError.argument(name, Text.ARGUMENT_NOT_TEXT);
        }
        String text = value.asText();
        if (maxLength.isPresent() && text.codePointCount(0, text.length()) > maxLength.getAsLong()) {
            throw outOfBounds(Text.ARGUMENT_TOO_LONG.text(maxLength.getAsLong()));
        }
        if (form.shape() == Shape.OBJECT_NAME && !KubeNames.isPathSegment(text)) {
            throw ToolError.argument(name, Text.ARGUMENT_NOT_NAME);
        }
        if (form.shape() == Shape.NAMESPACE && !KubeNames.isNamespace(text)) {
            throw ToolError.argument(name, Text.ARGUMENT_NOT_NAMESPACE);
        }
        return text;
    }

    private Long integer(JsonNode value) throws ToolError {
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw ToolError.argument(name, Text.ARGUMENT_NOT_INTEGER);
        }
        long number = value.asLong();
        if (number < minimum.getAsLong() || number > maximum.getAsLong()) {
            throw outOfBounds(Text.ARGUMENT_OUT_OF_RANGE.text(minimum.getAsLong(), maximum.getAsLong()));
        }
        return number;
    }

    /** The refusal of a value out of bounds: the parameter's own message, or {@code why}. */
    private ToolError outOfBounds(String why) {
        if (outOfBounds.isPresent()) {
            long max = maximum.isPresent() ? maximum.getAsLong() : maxLength.orElse(0);
            return ToolError.of(outOfBounds.get(), Map.of("max", max));
        }
        return ToolError.argument(name, why);
    }

    /** The property's JSON Schema (2020-12, as MCP tool input schemas are read). */
    ObjectNode schema() {
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        schema.put("type", form.shape().json);
        schema.put("description", description);
        minimum.ifPresent(value -> schema.put("minimum", value));
        maximum.ifPresent(value -> schema.put("maximum", value));
        maxLength.ifPresent(value -> schema.put("maxLength", value));
        defaultValue.ifPresent(value -> schema.set("default", JsonNodeFactory.instance.pojoNode(value)));
        return schema;
    }
}
