package dev.klave.agent.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * No Secret value leaves in any answer's shape (spec 3 §8 "Secrets handling"): a Secret, the items
 * of a {@code SecretList} (which name no kind of their own), a {@code List} of mixed objects, a
 * Secret nested anywhere — and the annotation that repeats the values.
 */
class RedactionTest {
    private static JsonNode json(String text) throws Exception {
        return Yaml.MAPPER.readTree(text);
    }

    @Test
    void theItemsOfASecretListAreHiddenThoughTheyNameNoKind() throws Exception {
        JsonNode list = json("""
                {"kind": "SecretList", "apiVersion": "v1", "items": [
                  {"metadata": {"name": "db", "annotations": {"kubectl.kubernetes.io/last-applied-configuration":
                     "{\\"data\\":{\\"password\\":\\"aHVudGVyMg==\\"}}"}},
                   "data": {"password": "aHVudGVyMg=="}, "stringData": {"user": "root"}}]}""");

        String shown = ReadTools.shown(list).toString();

        assertThat(shown).doesNotContain("aHVudGVyMg==").doesNotContain("root").doesNotContain("last-applied")
                .contains("<redacted, 7 bytes>").contains("<redacted, 4 bytes>");
    }

    @Test
    void aSecretInAListOfAnyKindOrNestedAnywhereIsHidden() throws Exception {
        JsonNode list = json("""
                {"kind": "List", "apiVersion": "v1", "items": [
                  {"kind": "ConfigMap", "apiVersion": "v1", "data": {"plain": "visible"}},
                  {"kind": "Secret", "apiVersion": "v1", "data": {"token": "c2VjcmV0"}}],
                 "extra": {"deeper": [{"kind": "Secret", "apiVersion": "v1", "stringData": {"k": "inner-value"}}]}}""");

        String shown = ReadTools.shown(list).toString();

        assertThat(shown).contains("visible").doesNotContain("c2VjcmV0").doesNotContain("inner-value");
    }

    @Test
    void aSecretAnswerLosesManagedFieldsAndItsValues() throws Exception {
        JsonNode secret = json("""
                {"kind": "Secret", "apiVersion": "v1", "metadata": {"name": "db", "managedFields": [{"manager": "x"}]},
                 "data": {"password": "aHVudGVyMg=="}}""");

        JsonNode shown = ReadTools.shown(secret);

        assertThat(shown.path("metadata").has("managedFields")).isFalse();
        assertThat(shown.path("data").path("password").asText()).isEqualTo("<redacted, 7 bytes>");
    }
}
