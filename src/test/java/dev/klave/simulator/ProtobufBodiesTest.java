package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Protobuf request bodies become the JSON objects kubectl would otherwise have sent. */
class ProtobufBodiesTest {
    @Test
    void aConfigMapWithLabelsAndDataBecomesJson() {
        byte[] metadata = concat(string(1, "settings"), string(2, ""), message(11, concat(string(1, "app"), string(2, "web"))));
        byte[] configMap = concat(message(1, metadata), message(2, concat(string(1, "color"), string(2, "blue"))));

        ObjectNode json = ProtobufBodies.toJson(envelope("v1", "ConfigMap", configMap)).orElseThrow();

        assertThat(json).isEqualTo(Json.parseObject("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","labels":{"app":"web"}},
                 "data":{"color":"blue"}}"""));
    }

    @Test
    void anEmptyElementOfARepeatedStringIsKeptBecauseItIsTheCoreGroup() {
        byte[] rule = concat(string(1, "get"), string(2, ""), string(3, "pods"));
        byte[] role = concat(message(1, string(1, "reader")), message(2, rule));

        ObjectNode json = ProtobufBodies.toJson(envelope("rbac.authorization.k8s.io/v1", "Role", role)).orElseThrow();

        assertThat(json.at("/rules/0").toString()).isEqualTo("{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}");
    }

    @Test
    void unknownKindsAndBodiesWithoutTheMagicAreNotConverted() {
        assertThat(ProtobufBodies.toJson(envelope("batch/v1", "Job", new byte[0]))).isEmpty();
        assertThat(ProtobufBodies.toJson("{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8))).isEmpty();
    }

    private static byte[] envelope(String apiVersion, String kind, byte[] raw) {
        return concat(new byte[] {'k', '8', 's', 0},
                message(1, concat(string(1, apiVersion), string(2, kind))), message(2, raw));
    }

    private static byte[] string(int field, String value) {
        return message(field, value.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] message(int field, byte[] value) {
        return concat(varint(field << 3 | 2), varint(value.length), value);
    }

    private static byte[] varint(int value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rest = value;
        while (rest >= 0x80) {
            out.write(rest & 0x7F | 0x80);
            rest >>>= 7;
        }
        out.write(rest);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
