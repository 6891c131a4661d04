package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The patch formats and label selectors, table-driven. */
class PatchesTest {
    static Stream<Arguments> strategicMergePatches() {
        return Stream.of(
                Arguments.of("containers merge by name",
                        "{\"containers\":[{\"name\":\"a\",\"image\":\"a:1\",\"ports\":[{\"containerPort\":80}]},{\"name\":\"b\",\"image\":\"b:1\"}]}",
                        "{\"containers\":[{\"name\":\"a\",\"image\":\"a:2\"}]}",
                        "{\"containers\":[{\"name\":\"a\",\"image\":\"a:2\",\"ports\":[{\"containerPort\":80}]},{\"name\":\"b\",\"image\":\"b:1\"}]}"),
                Arguments.of("$patch delete removes the element",
                        "{\"containers\":[{\"name\":\"a\"},{\"name\":\"b\"}]}",
                        "{\"containers\":[{\"name\":\"a\",\"$patch\":\"delete\"}]}",
                        "{\"containers\":[{\"name\":\"b\"}]}"),
                Arguments.of("$setElementOrder orders the result",
                        "{\"containers\":[{\"name\":\"a\"},{\"name\":\"b\"}]}",
                        "{\"$setElementOrder/containers\":[{\"name\":\"b\"},{\"name\":\"a\"}]}",
                        "{\"containers\":[{\"name\":\"b\"},{\"name\":\"a\"}]}"),
                Arguments.of("null deletes a key; primitive lists are replaced",
                        "{\"a\":1,\"args\":[\"x\",\"y\"]}",
                        "{\"a\":null,\"args\":[\"z\"]}",
                        "{\"args\":[\"z\"]}"),
                Arguments.of("$retainKeys keeps only the named keys",
                        "{\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":1}}}",
                        "{\"strategy\":{\"$retainKeys\":[\"type\"],\"type\":\"Recreate\"}}",
                        "{\"strategy\":{\"type\":\"Recreate\"}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategicMergePatches")
    void strategicMergePatch(String description, String live, String patch, String expected) {
        assertThat(Patches.strategicMergePatch(Json.parseObject(live), Json.parseObject(patch)))
                .isEqualTo(Json.parseObject(expected));
    }

    @Test
    void jsonPatchAppliesEveryOperation() {
        String operations = """
                [{"op":"add","path":"/list/-","value":3},{"op":"remove","path":"/gone"},
                 {"op":"replace","path":"/kept","value":"new"},{"op":"copy","from":"/kept","path":"/copy"},
                 {"op":"move","from":"/copy","path":"/moved"},{"op":"test","path":"/moved","value":"new"}]""";

        assertThat(Patches.jsonPatch(Json.parseObject("{\"list\":[1,2],\"gone\":true,\"kept\":\"old\"}"), Json.parse(operations.getBytes())))
                .isEqualTo(Json.parseObject("{\"list\":[1,2,3],\"kept\":\"new\",\"moved\":\"new\"}"));
    }

    static Stream<Arguments> labelSelectors() {
        return Stream.of(
                Arguments.of("app=web", true), Arguments.of("app==web", true), Arguments.of("app!=web", false),
                Arguments.of("app in (api,web)", true), Arguments.of("app notin (web)", false),
                Arguments.of("tier", true), Arguments.of("!tier", false), Arguments.of("!missing", true),
                Arguments.of("app=web,tier=front", true), Arguments.of("app=web,tier=back", false),
                Arguments.of("missing notin (x)", true));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("labelSelectors")
    void labelSelector(String selector, boolean matches) {
        Predicate<Map<String, String>> predicate = Selectors.parseLabels(selector);

        assertThat(predicate.test(Map.of("app", "web", "tier", "front"))).isEqualTo(matches);
    }
}
