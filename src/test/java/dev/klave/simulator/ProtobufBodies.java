package dev.klave.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * Request bodies in Kubernetes' protobuf encoding, turned into the JSON the rest of the simulator
 * reads. kubectl's typed clients ({@code create configmap}, {@code create role}, {@code auth can-i},
 * {@code auth whoami}, …) send {@code application/vnd.kubernetes.protobuf}: the magic
 * {@code k8s\0}, then a runtime.Unknown envelope (typeMeta = 1, raw = 2) around the object.
 * Only the kinds listed in {@link #SCHEMAS} are known, with the field numbers of k8s.io/api's
 * generated.proto; any other kind is refused with 415, as before.
 */
final class ProtobufBodies {
    static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    /** How one field is read: a scalar, a message of a named schema, or a map. */
    private enum Kind { STRING, INTEGER, COUNT, BOOLEAN, BYTES, MESSAGE, STRING_MAP, BYTES_MAP, TIME, INT_OR_STRING }

    private record Field(String name, Kind kind, String message, boolean repeated) {
    }

    private static Field field(String name, Kind kind) {
        return new Field(name, kind, "", false);
    }

    private static Field repeated(String name, Kind kind) {
        return new Field(name, kind, "", true);
    }

    private static Field message(String name, String message) {
        return new Field(name, Kind.MESSAGE, message, false);
    }

    private static Field messages(String name, String message) {
        return new Field(name, Kind.MESSAGE, message, true);
    }

    private static final Map<String, Map<Integer, Field>> SCHEMAS = Map.ofEntries(
            Map.entry("ObjectMeta", Map.of(1, field("name", Kind.STRING), 2, field("generateName", Kind.STRING),
                    3, field("namespace", Kind.STRING), 5, field("uid", Kind.STRING), 6, field("resourceVersion", Kind.STRING),
                    7, field("generation", Kind.INTEGER), 8, field("creationTimestamp", Kind.TIME),
                    11, field("labels", Kind.STRING_MAP), 12, field("annotations", Kind.STRING_MAP),
                    14, repeated("finalizers", Kind.STRING))),
            Map.entry("ConfigMap", Map.of(1, message("metadata", "ObjectMeta"), 2, field("data", Kind.STRING_MAP),
                    3, field("binaryData", Kind.BYTES_MAP), 4, field("immutable", Kind.BOOLEAN))),
            Map.entry("Secret", Map.of(1, message("metadata", "ObjectMeta"), 2, field("data", Kind.BYTES_MAP),
                    3, field("type", Kind.STRING), 4, field("stringData", Kind.STRING_MAP), 5, field("immutable", Kind.BOOLEAN))),
            Map.entry("Namespace", Map.of(1, message("metadata", "ObjectMeta"), 2, message("spec", "NamespaceSpec"))),
            Map.entry("NamespaceSpec", Map.of(1, repeated("finalizers", Kind.STRING))),
            Map.entry("ServiceAccount", Map.of(1, message("metadata", "ObjectMeta"),
                    4, field("automountServiceAccountToken", Kind.BOOLEAN))),
            Map.entry("Role", Map.of(1, message("metadata", "ObjectMeta"), 2, messages("rules", "PolicyRule"))),
            Map.entry("ClusterRole", Map.of(1, message("metadata", "ObjectMeta"), 2, messages("rules", "PolicyRule"))),
            Map.entry("PolicyRule", Map.of(1, repeated("verbs", Kind.STRING), 2, repeated("apiGroups", Kind.STRING),
                    3, repeated("resources", Kind.STRING), 4, repeated("resourceNames", Kind.STRING),
                    5, repeated("nonResourceURLs", Kind.STRING))),
            Map.entry("RoleBinding", Map.of(1, message("metadata", "ObjectMeta"), 2, messages("subjects", "Subject"),
                    3, message("roleRef", "RoleRef"))),
            Map.entry("ClusterRoleBinding", Map.of(1, message("metadata", "ObjectMeta"), 2, messages("subjects", "Subject"),
                    3, message("roleRef", "RoleRef"))),
            Map.entry("Subject", Map.of(1, field("kind", Kind.STRING), 2, field("apiGroup", Kind.STRING),
                    3, field("name", Kind.STRING), 4, field("namespace", Kind.STRING))),
            Map.entry("RoleRef", Map.of(1, field("apiGroup", Kind.STRING), 2, field("kind", Kind.STRING),
                    3, field("name", Kind.STRING))),
            Map.entry("SelfSubjectAccessReview", Map.of(1, message("metadata", "ObjectMeta"),
                    2, message("spec", "SelfSubjectAccessReviewSpec"))),
            Map.entry("SelfSubjectAccessReviewSpec", Map.of(1, message("resourceAttributes", "ResourceAttributes"),
                    2, message("nonResourceAttributes", "NonResourceAttributes"))),
            Map.entry("SubjectAccessReview", Map.of(1, message("metadata", "ObjectMeta"),
                    2, message("spec", "SubjectAccessReviewSpec"))),
            Map.entry("SubjectAccessReviewSpec", Map.of(1, message("resourceAttributes", "ResourceAttributes"),
                    2, message("nonResourceAttributes", "NonResourceAttributes"), 3, field("user", Kind.STRING),
                    4, repeated("groups", Kind.STRING), 6, field("uid", Kind.STRING))),
            Map.entry("ResourceAttributes", Map.of(1, field("namespace", Kind.STRING), 2, field("verb", Kind.STRING),
                    3, field("group", Kind.STRING), 4, field("version", Kind.STRING), 5, field("resource", Kind.STRING),
                    6, field("subresource", Kind.STRING), 7, field("name", Kind.STRING))),
            Map.entry("NonResourceAttributes", Map.of(1, field("path", Kind.STRING), 2, field("verb", Kind.STRING))),
            Map.entry("SelfSubjectReview", Map.of(1, message("metadata", "ObjectMeta"))),
            Map.entry("Deployment", Map.of(1, message("metadata", "ObjectMeta"), 2, message("spec", "DeploymentSpec"))),
            Map.entry("DeploymentSpec", Map.of(1, field("replicas", Kind.COUNT), 2, message("selector", "LabelSelector"),
                    3, message("template", "PodTemplateSpec"))),
            Map.entry("LabelSelector", Map.of(1, field("matchLabels", Kind.STRING_MAP))),
            Map.entry("PodTemplateSpec", Map.of(1, message("metadata", "ObjectMeta"), 2, message("spec", "PodSpec"))),
            Map.entry("PodSpec", Map.of(2, messages("containers", "Container"), 3, field("restartPolicy", Kind.STRING),
                    8, field("serviceAccountName", Kind.STRING))),
            Map.entry("Container", Map.of(1, field("name", Kind.STRING), 2, field("image", Kind.STRING),
                    3, repeated("command", Kind.STRING), 4, repeated("args", Kind.STRING), 5, field("workingDir", Kind.STRING),
                    6, messages("ports", "ContainerPort"), 7, messages("env", "EnvVar"),
                    14, field("imagePullPolicy", Kind.STRING))),
            Map.entry("ContainerPort", Map.of(1, field("name", Kind.STRING), 2, field("hostPort", Kind.INTEGER),
                    3, field("containerPort", Kind.INTEGER), 4, field("protocol", Kind.STRING))),
            Map.entry("EnvVar", Map.of(1, field("name", Kind.STRING), 2, field("value", Kind.STRING))),
            Map.entry("Service", Map.of(1, message("metadata", "ObjectMeta"), 2, message("spec", "ServiceSpec"))),
            Map.entry("ServiceSpec", Map.of(1, messages("ports", "ServicePort"), 2, field("selector", Kind.STRING_MAP),
                    3, field("clusterIP", Kind.STRING), 4, field("type", Kind.STRING))),
            Map.entry("ServicePort", Map.of(1, field("name", Kind.STRING), 2, field("protocol", Kind.STRING),
                    3, field("port", Kind.INTEGER), 4, field("targetPort", Kind.INT_OR_STRING), 5, field("nodePort", Kind.INTEGER))));

    private ProtobufBodies() {
    }

    static boolean isProtobuf(HttpRequest request) {
        return request.header("content-type").map(type -> type.startsWith(CONTENT_TYPE)).orElse(false);
    }

    /** The JSON form of a protobuf body, or empty when its kind is not one the simulator knows. */
    static Optional<ObjectNode> toJson(byte[] body) {
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            return Optional.empty();
        }
        ProtobufReader envelope = new ProtobufReader(Arrays.copyOfRange(body, MAGIC.length, body.length));
        String apiVersion = "";
        String kind = "";
        byte[] raw = new byte[0];
        while (envelope.more()) {
            int tag = envelope.tag();
            if (tag >>> 3 == 1 && (tag & 7) == 2) {
                ProtobufReader typeMeta = new ProtobufReader(envelope.bytes());
                while (typeMeta.more()) {
                    int inner = typeMeta.tag();
                    switch (inner >>> 3) {
                        case 1 -> apiVersion = typeMeta.string();
                        case 2 -> kind = typeMeta.string();
                        default -> typeMeta.skip(inner);
                    }
                }
            } else if (tag >>> 3 == 2 && (tag & 7) == 2) {
                raw = envelope.bytes();
            } else {
                envelope.skip(tag);
            }
        }
        if (!SCHEMAS.containsKey(kind)) {
            return Optional.empty();
        }
        ObjectNode object = Json.object();
        object.put("apiVersion", apiVersion);
        object.put("kind", kind);
        read(new ProtobufReader(raw), kind, object);
        return Optional.of(object);
    }

    private static void read(ProtobufReader reader, String schemaName, ObjectNode into) {
        Map<Integer, Field> schema = SCHEMAS.get(schemaName);
        while (reader.more()) {
            int tag = reader.tag();
            Field field = schema.get(tag >>> 3);
            if (field == null) {
                reader.skip(tag);
                continue;
            }
            switch (field.kind()) {
                case STRING -> {
                    String value = reader.string();
                    if (field.repeated()) {
                        // An empty element is data: apiGroups [""] is the core group.
                        arrayOf(into, field.name()).add(value);
                    } else if (!value.isEmpty()) {
                        into.put(field.name(), value);
                    }
                }
                case INTEGER -> {
                    long value = reader.varint();
                    if (value != 0) {
                        into.put(field.name(), value);
                    }
                }
                case COUNT -> into.put(field.name(), reader.varint());
                case INT_OR_STRING -> intOrString(reader.bytes(), into, field.name());
                case BOOLEAN -> {
                    if (reader.varint() != 0) {
                        into.put(field.name(), true);
                    }
                }
                case BYTES -> into.put(field.name(), Base64.getEncoder().encodeToString(reader.bytes()));
                case TIME -> time(reader.bytes()).ifPresent(time -> into.put(field.name(), time));
                case STRING_MAP, BYTES_MAP ->
                        mapEntry(reader.bytes(), field.kind() == Kind.BYTES_MAP, Json.objectAt(into, field.name()));
                case MESSAGE -> {
                    ObjectNode child = Json.object();
                    read(new ProtobufReader(reader.bytes()), field.message(), child);
                    if (field.repeated()) {
                        arrayOf(into, field.name()).add(child);
                    } else if (!child.isEmpty()) {
                        into.set(field.name(), child);
                    }
                }
            }
        }
    }

    private static void mapEntry(byte[] entry, boolean bytes, ObjectNode map) {
        ProtobufReader reader = new ProtobufReader(entry);
        String key = "";
        byte[] value = new byte[0];
        while (reader.more()) {
            int tag = reader.tag();
            switch (tag >>> 3) {
                case 1 -> key = reader.string();
                case 2 -> value = reader.bytes();
                default -> reader.skip(tag);
            }
        }
        map.put(key, bytes ? Base64.getEncoder().encodeToString(value) : new String(value, StandardCharsets.UTF_8));
    }

    /** intstr.IntOrString is {type = 1 (0 int, 1 string), intVal = 2, strVal = 3}. */
    private static void intOrString(byte[] message, ObjectNode into, String name) {
        ProtobufReader reader = new ProtobufReader(message);
        long type = 0;
        long number = 0;
        String text = "";
        while (reader.more()) {
            int tag = reader.tag();
            switch (tag >>> 3) {
                case 1 -> type = reader.varint();
                case 2 -> number = reader.varint();
                case 3 -> text = reader.string();
                default -> reader.skip(tag);
            }
        }
        if (type == 1) {
            into.put(name, text);
        } else {
            into.put(name, number);
        }
    }

    /** metav1.Time is {seconds = 1, nanos = 2}; the zero time (an empty message) means unset. */
    private static Optional<String> time(byte[] message) {
        ProtobufReader reader = new ProtobufReader(message);
        long seconds = 0;
        while (reader.more()) {
            int tag = reader.tag();
            if (tag >>> 3 == 1) {
                seconds = reader.varint();
            } else {
                reader.skip(tag);
            }
        }
        return seconds == 0 ? Optional.empty() : Optional.of(Instant.ofEpochSecond(seconds).toString());
    }

    private static ArrayNode arrayOf(ObjectNode object, String name) {
        return object.get(name) instanceof ArrayNode array ? array : object.putArray(name);
    }

    /** Protocol buffers wire format: varints and length-delimited fields are all these bodies use. */
    private static final class ProtobufReader {
        private final byte[] data;
        private int position;

        ProtobufReader(byte[] data) {
            this.data = data;
        }

        boolean more() {
            return position < data.length;
        }

        int tag() {
            return (int) varint();
        }

        long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (position >= data.length) {
                    throw ApiException.badRequest("truncated protobuf body");
                }
                byte next = data[position++];
                value |= (long) (next & 0x7F) << shift;
                if (next >= 0) {
                    return value;
                }
            }
            throw ApiException.badRequest("malformed protobuf varint");
        }

        byte[] bytes() {
            int length = (int) varint();
            if (length < 0 || position + length > data.length) {
                throw ApiException.badRequest("truncated protobuf body");
            }
            byte[] value = Arrays.copyOfRange(data, position, position + length);
            position += length;
            return value;
        }

        String string() {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        void skip(int tag) {
            switch (tag & 7) {
                case 0 -> varint();
                case 1 -> position += 8;
                case 2 -> bytes();
                case 5 -> position += 4;
                default -> throw ApiException.badRequest("unsupported protobuf wire type " + (tag & 7));
            }
        }
    }
}
