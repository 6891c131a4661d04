package dev.klave.agent.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A parameter declared once is the schema, the check and the typed value: what {@code tools/list}
 * shows is what a call is held to, and a handler reads only what its tool declared, as declared.
 */
class ArgumentsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Parameter<?>> SCALE = List.of(Catalogue.CLUSTER, Catalogue.KIND, Catalogue.NAMESPACE,
            Catalogue.NAME, Catalogue.REPLICAS, Catalogue.APPROVAL_ID);

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    private static String refusal(List<Parameter<?>> declared, String arguments) {
        try {
            Arguments.check(json(arguments), declared);
        } catch (ToolError error) {
            return error.code() + ": " + error.getMessage();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("accepted: " + arguments);
    }

    @Test
    void aHandlerReadsTypedValuesAndDefaults() throws Exception {
        Arguments arguments = Arguments.check(json("""
                {"cluster":"prod-1","kind":"deployments","namespace":"team-a","name":"web","replicas":3}"""), SCALE);

        Long replicas = arguments.need(Catalogue.REPLICAS);
        assertThat(replicas).isEqualTo(3L);
        assertThat(arguments.need(Catalogue.NAME)).isEqualTo("web");
        assertThat(arguments.get(Catalogue.APPROVAL_ID)).isEmpty();
        Arguments logs = Arguments.check(json("{\"cluster\":\"c\",\"namespace\":\"n\",\"pod\":\"p\"}"),
                List.of(Catalogue.CLUSTER, Catalogue.IN_NAMESPACE, Catalogue.POD, Catalogue.TAIL_LINES,
                        Catalogue.PREVIOUS));
        assertThat(logs.need(Catalogue.TAIL_LINES)).isEqualTo(200L);
        assertThat(logs.isSet(Catalogue.PREVIOUS)).isFalse();
    }

    @Test
    void namesAndNamespacesAreCheckedBeforeAnyHandlerRuns() {
        assertThat(refusal(SCALE, "{\"cluster\":\"c\",\"kind\":\"k\",\"name\":\"a/b\",\"replicas\":1}"))
                .startsWith("agent.argument_invalid: ").contains("name").contains("no es un nombre");
        assertThat(refusal(SCALE, "{\"cluster\":\"c\",\"kind\":\"k\",\"namespace\":\"Team_A\",\"name\":\"a\","
                + "\"replicas\":1}")).contains("namespace").contains("no es un namespace");
    }

    @Test
    void missingBlankWrongTypeAndOutOfRangeAreRefusedInTheCataloguesWords() {
        assertThat(refusal(SCALE, "{\"cluster\":\"c\",\"kind\":\"k\",\"name\":\"a\"}"))
                .isEqualTo("agent.argument_invalid: argumento replicas no válido: es obligatorio");
        assertThat(refusal(SCALE, "{\"cluster\":\" \",\"kind\":\"k\",\"name\":\"a\",\"replicas\":1}"))
                .endsWith("cluster no válido: es obligatorio");
        assertThat(refusal(SCALE, "{\"cluster\":\"c\",\"kind\":\"k\",\"name\":\"a\",\"replicas\":\"3\"}"))
                .endsWith("debe ser un número entero");
        assertThat(refusal(SCALE, "{\"cluster\":\"c\",\"kind\":\"k\",\"name\":\"a\",\"replicas\":-1}"))
                .endsWith("debe estar entre 0 y 2147483647");
        assertThat(refusal(SCALE, "{\"cluster\":\"c\",\"kind\":\"k\",\"name\":\"a\",\"replicas\":1,\"x\":1}"))
                .endsWith("argumento x no válido: esta herramienta no lo admite");
        assertThat(refusal(List.of(Catalogue.CLUSTER, Catalogue.ACCESS_SCOPE, Catalogue.ROLE, Catalogue.MINUTES,
                Catalogue.REASON), "{\"cluster\":\"c\",\"namespace\":\"*\",\"role\":\"view\",\"minutes\":5,"
                + "\"reason\":\"   \"}")).startsWith("agent.access_reason: ");
    }

    @Test
    void aHandlerCannotReadAParameterItsToolDidNotDeclareAsDeclared() throws Exception {
        Arguments arguments = Arguments.check(json("{\"cluster\":\"c\",\"kind\":\"k\",\"name\":\"a\",\"replicas\":1}"),
                SCALE);

        // Same name, another declaration (mandatory, or another description): not this tool's.
        assertThatThrownBy(() -> arguments.get(Catalogue.IN_NAMESPACE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> arguments.get(Catalogue.NAMESPACE_OR_ALL)).isInstanceOf(IllegalArgumentException.class);
        // An optional parameter without a default has no value to need.
        assertThatThrownBy(() -> arguments.need(Catalogue.APPROVAL_ID)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSchemaIsTheDeclaration() {
        assertThat(Catalogue.REPLICAS.schema().toString())
                .isEqualTo("{\"type\":\"integer\",\"description\":\"Desired replicas.\",\"minimum\":0,"
                        + "\"maximum\":2147483647}");
        assertThat(Catalogue.ROWS.schema().get("default").asLong()).isEqualTo(100);
        assertThat(Catalogue.NAME.schema().get("type").asText()).isEqualTo("string");
    }
}
