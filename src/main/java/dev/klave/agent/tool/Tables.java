package dev.klave.agent.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code meta.k8s.io/v1 Table} printed as kubectl prints it: the columns of priority 0 in upper
 * case, each padded to its widest cell, with NAMESPACE first when the list spans namespaces.
 */
final class Tables {
    private Tables() {}

    static String print(JsonNode table, boolean withNamespace) {
        List<Integer> shown = new ArrayList<>();
        List<String> header = new ArrayList<>();
        if (withNamespace) {
            header.add("NAMESPACE");
        }
        JsonNode columns = table.path("columnDefinitions");
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).path("priority").asInt(0) == 0) {
                shown.add(i);
                header.add(columns.get(i).path("name").asText().toUpperCase(Locale.ROOT));
            }
        }
        List<List<String>> lines = new ArrayList<>();
        lines.add(header);
        for (JsonNode row : table.path("rows")) {
            List<String> line = new ArrayList<>();
            if (withNamespace) {
                line.add(row.path("object").path("metadata").path("namespace").asText(""));
            }
            for (int index : shown) {
                line.add(cell(row.path("cells").path(index)));
            }
            lines.add(line);
        }
        return pad(lines);
    }

    /** Lines of cells in aligned columns, three spaces apart, as kubectl's printer does. */
    static String pad(List<List<String>> lines) {
        int[] widths = new int[lines.get(0).size()];
        for (List<String> line : lines) {
            for (int i = 0; i < line.size() && i < widths.length; i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (List<String> line : lines) {
            StringBuilder printed = new StringBuilder();
            for (int i = 0; i < line.size(); i++) {
                printed.append(line.get(i));
                if (i < line.size() - 1) {
                    printed.append(" ".repeat(widths[i] - line.get(i).length() + 3));
                }
            }
            text.append(printed.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }

    private static String cell(JsonNode value) {
        if (value.isMissingNode() || value.isNull()) {
            return "<none>";
        }
        return value.isTextual() ? value.asText() : value.toString();
    }
}
