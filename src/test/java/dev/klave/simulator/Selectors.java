package dev.klave.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Label selectors (equality {@code a=b}, {@code a==b}, {@code a!=b}; set-based {@code a in (x,y)},
 * {@code a notin (x)}, {@code a}, {@code !a}) and field selectors on dotted paths
 * ({@code metadata.name=x}), as k8s.io/apimachinery/pkg/labels and fields parse them.
 */
final class Selectors {
    private Selectors() {
    }

    static Predicate<ObjectNode> labels(String selector) {
        Predicate<Map<String, String>> match = parseLabels(selector);
        return object -> match.test(Json.stringMap(object.path("metadata").path("labels")));
    }

    static Predicate<ObjectNode> fields(String selector) {
        Predicate<ObjectNode> all = object -> true;
        for (String requirement : split(selector)) {
            boolean negated = requirement.contains("!=");
            String[] parts = requirement.split(negated ? "!=" : "==?", 2);
            if (parts.length != 2) {
                throw ApiException.badRequest("invalid field selector: " + selector);
            }
            String[] path = parts[0].strip().split("\\.");
            String value = parts[1].strip();
            all = all.and(object -> {
                JsonNode node = object;
                for (String step : path) {
                    node = node.path(step);
                }
                boolean equal = (node.isMissingNode() ? "" : node.asText()).equals(value);
                return negated != equal;
            });
        }
        return all;
    }

    static Predicate<Map<String, String>> parseLabels(String selector) {
        Predicate<Map<String, String>> all = labels -> true;
        for (String requirement : split(selector)) {
            all = all.and(requirement(requirement.strip(), selector));
        }
        return all;
    }

    private static Predicate<Map<String, String>> requirement(String requirement, String selector) {
        String[] setBased = requirement.split("\\s+(notin|in)\\s+", 2);
        if (setBased.length == 2) {
            String key = setBased[0].strip();
            boolean notIn = requirement.matches(".*\\s+notin\\s+.*");
            String list = setBased[1].strip();
            if (!list.startsWith("(") || !list.endsWith(")")) {
                throw ApiException.badRequest("unable to parse requirement: " + selector);
            }
            Set<String> values = Arrays.stream(list.substring(1, list.length() - 1).split(","))
                    .map(String::strip).collect(Collectors.toSet());
            return labels -> notIn ? !values.contains(labels.get(key)) : labels.containsKey(key) && values.contains(labels.get(key));
        }
        if (requirement.contains("!=")) {
            String[] parts = requirement.split("!=", 2);
            String key = parts[0].strip();
            String value = parts[1].strip();
            return labels -> !value.equals(labels.get(key));
        }
        if (requirement.contains("=")) {
            String[] parts = requirement.split("==?", 2);
            String key = parts[0].strip();
            String value = parts[1].strip();
            return labels -> value.equals(labels.get(key));
        }
        if (requirement.startsWith("!")) {
            String key = requirement.substring(1).strip();
            return labels -> !labels.containsKey(key);
        }
        if (requirement.isEmpty() || requirement.contains(" ")) {
            throw ApiException.badRequest("unable to parse requirement: " + selector);
        }
        return labels -> labels.containsKey(requirement);
    }

    /** Splits on commas outside parentheses: {@code a in (x,y),b} has two requirements. */
    private static List<String> split(String selector) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (char c : selector.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
            if (c == ',' && depth == 0) {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        if (!current.isEmpty()) {
            parts.add(current.toString());
        }
        return parts.stream().filter(part -> !part.isBlank()).toList();
    }
}
