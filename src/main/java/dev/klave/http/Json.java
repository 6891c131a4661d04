package dev.klave.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Untrusted;
import java.io.IOException;
import java.util.Iterator;
import java.util.Set;

/**
 * The one JSON mapper of the API. Reading is strict (spec 1 §4): unknown fields, duplicate keys,
 * trailing data, nulls for primitives and scalars of the wrong type are all refused with 400
 * {@code cuerpo JSON no válido}; an unknown field is named after it, so a client sees which one.
 * Field names are snake_case, times are RFC 3339 strings.
 */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .addModule(new JavaTimeModule())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            // Jackson turns any scalar into a String field whatever ALLOW_COERCION_OF_SCALARS says
            // ({"password": 123} read as "123", {"name": 12} stored as "12"): a string field takes
            // a JSON string only, and null where the record allows it.
            .withCoercionConfig(LogicalType.Textual, strings -> strings
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Object, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Array, CoercionAction.Fail))
            .build();

    /** Longest part of an unknown field's name repeated back; the name is the client's. */
    static final int MAX_FIELD_NAME = 64;

    private Json() {}

    /**
     * Reads a request body as {@code type}.
     *
     * @throws dev.klave.messages.Refusal {@code INVALID_JSON} for anything but one well-formed
     *     JSON value of the expected shape; a refusal thrown by the type's constructor (a
     *     validation reason) passes through unchanged
     */
    public static <T> T read(byte[] body, Class<T> type) {
        if (body.length == 0) {
            throw Message.INVALID_JSON.refusal();
        }
        try {
            T value = MAPPER.readValue(body, type);
            if (value == null) {
                throw Message.INVALID_JSON.refusal();
            }
            return value;
        } catch (UnrecognizedPropertyException e) {
            throw unknownField(e.getPropertyName());
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof Refusal refusal) {
                throw refusal;
            }
            throw Message.INVALID_JSON.refusal();
        } catch (IOException e) {
            throw Message.INVALID_JSON.refusal();
        }
    }

    /**
     * Reads a request body that must be one JSON object, for endpoints that tell an absent field
     * from a null one (PATCH). Same strictness as {@link #read}.
     */
    public static ObjectNode readObject(byte[] body) {
        JsonNode node = read(body, JsonNode.class);
        if (!(node instanceof ObjectNode object)) {
            throw Message.INVALID_JSON.refusal();
        }
        return object;
    }

    /**
     * Refuses an object read with {@link #readObject} that has a field other than {@code known},
     * naming it as {@link #read} does.
     */
    public static void refuseUnknownFields(ObjectNode object, Set<String> known) {
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                throw unknownField(name);
            }
        }
    }

    /** 400 naming the field, escaped and cut: its name is whatever the client sent. */
    private static Refusal unknownField(String name) {
        return Message.INVALID_JSON_UNKNOWN_FIELD.refusal(Untrusted.text(name, MAX_FIELD_NAME));
    }

    /** {@code value} as the tree the API would send (snake_case names, RFC 3339 times). */
    public static com.fasterxml.jackson.databind.node.ObjectNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    public static byte[] write(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getName() + " as JSON", e);
        }
    }
}
