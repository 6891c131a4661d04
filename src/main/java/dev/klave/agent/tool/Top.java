package dev.klave.agent.tool;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.messages.Message;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code top} (issue 43): CPU and memory of pods (a namespace's, every namespace's, or one) or of
 * nodes, from the resource metrics API ({@code metrics.k8s.io}, metrics-server's), as
 * {@code kubectl top} prints them, busiest first. The API is found through the cluster's
 * discovery like any kind; a cluster without it gets {@code agent.metrics_unavailable}.
 */
final class Top {
    static final String GROUP = "metrics.k8s.io";

    private final Clusters clusters;

    Top(Clusters clusters) {
        this.clusters = requireNonNull(clusters, "clusters is null");
    }

    private record Usage(String namespace, String name, BigDecimal cpu, BigDecimal memory,
            List<Usage> containers) {}

    ToolResult top(ToolCall call) throws ToolError, ClusterRefusal, InterruptedException {
        Arguments arguments = call.arguments();
        ClusterCalls calls = clusters.calls(call);
        boolean nodes = arguments.isSet(Catalogue.NODES);
        String plural = nodes ? "nodes" : "pods";
        Kind metrics = Kinds.discover(calls).stream()
                .filter(kind -> kind.group().equals(GROUP) && kind.plural().equals(plural)).findFirst()
                .orElseThrow(() -> ToolError.of(Message.AGENT_METRICS_UNAVAILABLE,
                        Map.of("cluster", calls.cluster().value())));
        String namespace = nodes ? "" : arguments.get(Catalogue.NAMESPACE_OR_ALL).orElse("");
        Optional<String> name = arguments.get(Catalogue.TOP_NAME);
        if (name.isPresent() && !nodes && namespace.isEmpty()) {
            throw ToolError.argument(Catalogue.NAMESPACE.name(), dev.klave.messages.Text.ARGUMENT_NAMESPACE_NEEDED,
                    "pods");
        }
        List<Usage> usages = new ArrayList<>();
        if (name.isPresent()) {
            usages.add(usage(calls.getJson(metrics.object(namespace, name.get()), Map.of())));
        } else {
            for (JsonNode item : calls.getJson(metrics.collection(namespace), Map.of()).path("items")) {
                usages.add(usage(item));
            }
        }
        usages.sort(Comparator.comparing(Usage::cpu).reversed().thenComparing(Usage::name));
        boolean allNamespaces = !nodes && namespace.isEmpty();
        List<List<String>> lines = new ArrayList<>();
        List<String> head = new ArrayList<>(allNamespaces ? List.of("NAMESPACE") : List.of());
        head.addAll(List.of("NAME", "CPU(cores)", "MEMORY(bytes)"));
        lines.add(head);
        ArrayNode structured = JsonNodeFactory.instance.arrayNode();
        for (Usage usage : usages) {
            List<String> line = new ArrayList<>(allNamespaces ? List.of(usage.namespace()) : List.of());
            line.addAll(List.of(usage.name(), Quantities.millicores(usage.cpu()), Quantities.mebibytes(usage.memory())));
            lines.add(line);
            ObjectNode entry = structured.addObject().put("name", usage.name())
                    .put("cpu_millicores", usage.cpu().movePointRight(3).longValue())
                    .put("memory_bytes", usage.memory().longValue());
            if (!nodes) {
                entry.put("namespace", usage.namespace());
            }
            if (name.isPresent()) {
                for (Usage container : usage.containers()) {
                    List<String> row = new ArrayList<>(allNamespaces ? List.of("") : List.of());
                    row.addAll(List.of("  " + container.name(), Quantities.millicores(container.cpu()),
                            Quantities.mebibytes(container.memory())));
                    lines.add(row);
                }
            }
        }
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.set(plural, structured);
        String text = usages.isEmpty() ? "No metrics for " + plural + (namespace.isEmpty() ? "" : " in namespace "
                + namespace) + " yet.\n" : Tables.pad(lines);
        return ToolResult.Done.of(Output.cut(text, "name one namespace or pod"), result);
    }

    /** A PodMetrics (its containers summed) or a NodeMetrics; a value that is no quantity counts 0. */
    private static Usage usage(JsonNode item) {
        String namespace = item.path("metadata").path("namespace").asText("");
        String name = item.path("metadata").path("name").asText("");
        if (!item.has("containers")) {
            return new Usage(namespace, name, quantity(item.path("usage").path("cpu")),
                    quantity(item.path("usage").path("memory")), List.of());
        }
        List<Usage> containers = new ArrayList<>();
        BigDecimal cpu = BigDecimal.ZERO;
        BigDecimal memory = BigDecimal.ZERO;
        for (JsonNode container : item.path("containers")) {
            Usage one = new Usage(namespace, container.path("name").asText(""),
                    quantity(container.path("usage").path("cpu")), quantity(container.path("usage").path("memory")),
                    List.of());
            containers.add(one);
            cpu = cpu.add(one.cpu());
            memory = memory.add(one.memory());
        }
        return new Usage(namespace, name, cpu, memory, containers);
    }

    private static BigDecimal quantity(JsonNode value) {
        return Quantities.parse(value.asText("")).filter(number -> number.signum() >= 0).orElse(BigDecimal.ZERO);
    }
}
